CREATE TABLE "hourly_send_shards" (
	"workspace_id" text NOT NULL,
	"hour" text NOT NULL,
	"shard" integer NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "hourly_send_shards_workspace_id_hour_shard_pk" PRIMARY KEY("workspace_id","hour","shard")
);
--> statement-breakpoint
ALTER TABLE "hourly_send_shards" ADD CONSTRAINT "hourly_send_shards_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Counts one send in the shard's row of the workspace's hour, unless the hour's rows (and its row of hourly_sends,
-- where cores of earlier versions count) already sum to the limit: then it raises SV002 (hour_full), which takes
-- back what the statement wrote. The sum is read once the shard's row is locked, so it holds every send committed
-- before: the sends of one shard (one core) never pass the limit, and each other shard may have one send under way
-- that it does not see yet.
CREATE FUNCTION svc_count_send(workspace text, send_hour text, send_shard integer, hourly_limit integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hourly_send_shards (workspace_id, hour, shard, count) VALUES (workspace, send_hour, send_shard, 0)
  ON CONFLICT DO NOTHING;
  PERFORM FROM hourly_send_shards WHERE workspace_id = workspace AND hour = send_hour AND shard = send_shard FOR UPDATE;
  IF (SELECT sum(count) FROM hourly_send_shards WHERE workspace_id = workspace AND hour = send_hour)
    + coalesce((SELECT count FROM hourly_sends WHERE workspace_id = workspace AND hour = send_hour), 0) >= hourly_limit THEN
    RAISE EXCEPTION 'the hourly sends of workspace % are used up', workspace USING ERRCODE = 'SV002';
  END IF;
  UPDATE hourly_send_shards SET count = count + 1 WHERE workspace_id = workspace AND hour = send_hour AND shard = send_shard;
END $$;--> statement-breakpoint
-- A create in one statement: under its number's lock (creates of one number run one after the other, in any core),
-- the verification, and its message (none for a test number) counted in its workspace's hour. Raises SV001
-- (changed) when the number has a pending verification that has not expired, and SV002 (hour_full): nothing is
-- written then.
CREATE FUNCTION svc_create_verification(verification jsonb, message jsonb, send_hour text, send_shard integer, hourly_limit integer)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  created phone_verifications := jsonb_populate_record(null::phone_verifications, verification);
BEGIN
  PERFORM pg_advisory_xact_lock(7302116, hashtext(created.workspace_id || ' ' || created.phone_number));
  IF EXISTS (
    SELECT FROM phone_verifications
    WHERE workspace_id = created.workspace_id AND phone_number = created.phone_number AND status = 'pending'
      AND expires_at > created.created_at AND id <> created.id
  ) THEN
    RAISE EXCEPTION 'a code was sent to % meanwhile', created.phone_number USING ERRCODE = 'SV001';
  END IF;
  INSERT INTO phone_verifications SELECT created.*;
  IF message IS NOT NULL THEN
    PERFORM svc_count_send(created.workspace_id, send_hour, send_shard, hourly_limit);
    INSERT INTO message_outbox SELECT (jsonb_populate_record(null::message_outbox, message)).*;
  END IF;
END $$;--> statement-breakpoint
-- A resend in one statement: the verification's unsent messages superseded, its fresh code, and its message counted
-- in its workspace's hour, only while its last send is still `sent_before`; raises SV001 (changed) or SV002
-- (hour_full) with nothing written. The outbox rows are locked first, then the verification's, as a finished send
-- locks them.
CREATE FUNCTION svc_resend_verification(
  target text, sent_before text, fresh jsonb, message jsonb, send_hour text, send_shard integer, hourly_limit integer
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed phone_verifications;
BEGIN
  UPDATE message_outbox SET status = 'superseded', code_sealed = NULL WHERE verification_id = target AND status = 'pending';
  UPDATE phone_verifications SET
    code_hmac = fresh->>'code_hmac',
    expires_at = fresh->>'expires_at',
    last_sent_at = fresh->>'last_sent_at',
    delivery_status = fresh->>'delivery_status',
    delivery_error = NULL,
    delivery_updated_at = fresh->>'last_sent_at',
    send_count = send_count + 1
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
