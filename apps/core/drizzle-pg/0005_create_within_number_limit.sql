-- A create that also keeps the number's send limit: it raises SV003 (the number had `number_limit` sends after
-- `number_since`) with nothing written, else creates as svc_create_verification does. A create of a number with no
-- pending code and sends to spare, the usual case, is then one round trip; SV001 or SV003 sends the caller to read
-- the number's state and decide. A null `number_limit` (a test number) checks no limit.
CREATE FUNCTION svc_create_verification(
  verification jsonb, message jsonb, send_hour text, send_shard integer, hourly_limit integer, number_since text, number_limit integer
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF number_limit IS NOT NULL AND (
    SELECT count(*) FROM (
      SELECT FROM message_outbox
      WHERE workspace_id = verification->>'workspace_id' AND phone_number = verification->>'phone_number'
        AND created_at > number_since
      LIMIT number_limit
    ) AS recent
  ) >= number_limit THEN
    RAISE EXCEPTION 'codes sent to % are at their limit', verification->>'phone_number' USING ERRCODE = 'SV003';
  END IF;
  PERFORM svc_create_verification(verification, message, send_hour, send_shard, hourly_limit);
END $$;
