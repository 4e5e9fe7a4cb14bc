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
--> statement-breakpoint
-- Creates that arrive together in one statement and one transaction: each element of `creates` holds the arguments
-- of the create above, by name. Each runs in a subtransaction of its own, so one refused rolls back alone: the
-- answer has, in the order given, 'created' or the SQLSTATE that refused it (SV001, SV002, SV003). Every batch takes
-- its locks in one order, so that two never wait on each other: first all its numbers' (by key), then the shard
-- rows of the hours it counts sends in (by workspace and hour, as it runs its creates in that order). Core gives a
-- batch one create of a workspace's hour, so that another core's create misses at most one of its sends.
CREATE FUNCTION svc_create_verifications(creates jsonb, send_shard integer) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  item record;
  outcomes text[] := array_fill(NULL::text, ARRAY[jsonb_array_length(creates)]);
BEGIN
  PERFORM pg_advisory_xact_lock(7302116, number_key) FROM (
    SELECT DISTINCT hashtext((c->'verification'->>'workspace_id') || ' ' || (c->'verification'->>'phone_number')) AS number_key
    FROM jsonb_array_elements(creates) AS c
    ORDER BY 1
  ) AS numbers;
  FOR item IN
    SELECT value, n FROM jsonb_array_elements(creates) WITH ORDINALITY AS c(value, n)
    ORDER BY value->'verification'->>'workspace_id', value->>'send_hour', n
  LOOP
    BEGIN
      PERFORM svc_create_verification(
        item.value->'verification', nullif(item.value->'message', 'null'::jsonb), item.value->>'send_hour', send_shard,
        (item.value->>'hourly_limit')::integer, item.value->>'number_since', (item.value->>'number_limit')::integer
      );
      outcomes[item.n] := 'created';
    EXCEPTION WHEN SQLSTATE 'SV001' OR SQLSTATE 'SV002' OR SQLSTATE 'SV003' THEN
      outcomes[item.n] := SQLSTATE;
    END;
  END LOOP;
  RETURN outcomes;
END $$;
