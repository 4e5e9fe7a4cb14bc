ALTER TABLE "phone_verifications" ADD COLUMN "last_send_key" text;--> statement-breakpoint
-- A resend keeps the digest of the Idempotency-Key it was asked with. Otherwise as in migration 0008.
CREATE OR REPLACE FUNCTION svc_resend_verification(
  target text, sent_before text, fresh jsonb, message jsonb, send_hour text, send_shard integer, hourly_limit integer
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed phone_verifications;
BEGIN
  UPDATE message_outbox SET status = 'superseded', code_sealed = NULL, claim_id = NULL, claimed_until = NULL
  WHERE verification_id = target AND status = 'pending';
  UPDATE phone_verifications SET
    code_hmac = fresh->>'code_hmac',
    expires_at = fresh->>'expires_at',
    last_sent_at = fresh->>'last_sent_at',
    delivery_status = fresh->>'delivery_status',
    delivery_error = NULL,
    delivery_updated_at = fresh->>'last_sent_at',
    send_count = send_count + 1,
    last_send_key = fresh->>'last_send_key'
  WHERE id = target AND last_sent_at = sent_before
  RETURNING * INTO changed;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'verification % was sent again meanwhile', target USING ERRCODE = 'SV001';
  END IF;
  IF message IS NOT NULL THEN
    PERFORM svc_count_send(changed.workspace_id, send_hour, send_shard, hourly_limit);
    INSERT INTO message_outbox SELECT (jsonb_populate_record(null::message_outbox, message)).*;
  END IF;
END $$;
