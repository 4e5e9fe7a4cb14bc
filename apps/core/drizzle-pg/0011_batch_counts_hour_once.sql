-- Creates that arrive together, as in migration 0006, with each workspace's hour counted once per batch rather than
-- once per create. A create is checked before anything of it is written: the number's recent sends (SV003), a pending
-- verification of the number (SV001), then room in its hour (SV002); a refused create writes nothing, so it needs no
-- subtransaction of its own. The hour's shard row is locked and the hour's sends summed when the batch's first send
-- of that hour is counted; each later send of the hour is checked against that sum and the sends counted since, and
-- the shard row is written once, after the hour's last create. The locks are those of migration 0006, in its order:
-- the numbers' (by key), then each hour's, alone when the batch counts several sends in it, else shared. Planned with
-- sequential scans off, like the statements of migrations 0009 and 0010: a plan made while the tables were small
-- would scan them whole however large they grew.
CREATE OR REPLACE FUNCTION svc_create_verifications(creates jsonb, send_shard integer) RETURNS text[]
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
DECLARE
  item record;
  outcomes text[] := array_fill(NULL::text, ARRAY[jsonb_array_length(creates)]);
  created phone_verifications;
  hour_sends bigint;
  counted integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(7302116, number_key) FROM (
    SELECT DISTINCT hashtext((c->'verification'->>'workspace_id') || ' ' || (c->'verification'->>'phone_number')) AS number_key
    FROM jsonb_array_elements(creates) AS c
    ORDER BY 1
  ) AS numbers;
  FOR item IN
    SELECT value, n, workspace, value->>'send_hour' AS send_hour,
      nullif(value->'message', 'null'::jsonb) AS message,
      hashtext(workspace || ' ' || (value->>'send_hour')) AS hour_key,
      row_number() OVER hour_creates AS nth,
      count(*) OVER hour_creates AS in_hour,
      count(*) FILTER (WHERE coalesce(value->'message', 'null'::jsonb) <> 'null'::jsonb) OVER hour_creates AS sends
    FROM jsonb_array_elements(creates) WITH ORDINALITY AS c(value, n),
      LATERAL (SELECT value->'verification'->>'workspace_id' AS workspace) AS w
    WINDOW hour_creates AS (PARTITION BY workspace, value->>'send_hour' ORDER BY n
      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ORDER BY workspace, value->>'send_hour', n
  LOOP
    IF item.nth = 1 THEN
      hour_sends := NULL;
      counted := 0;
    END IF;
    created := jsonb_populate_record(null::phone_verifications, item.value->'verification');
    IF item.value->>'number_limit' IS NOT NULL AND (
      SELECT count(*) FROM (
        SELECT FROM message_outbox
        WHERE workspace_id = created.workspace_id AND phone_number = created.phone_number
          AND created_at > item.value->>'number_since'
        LIMIT (item.value->>'number_limit')::integer
      ) AS recent
    ) >= (item.value->>'number_limit')::integer THEN
      outcomes[item.n] := 'SV003';
    ELSIF EXISTS (
      SELECT FROM phone_verifications
      WHERE workspace_id = created.workspace_id AND phone_number = created.phone_number AND status = 'pending'
        AND expires_at > created.created_at AND id <> created.id
    ) THEN
      outcomes[item.n] := 'SV001';
    ELSE
      IF item.message IS NOT NULL AND hour_sends IS NULL THEN
        IF item.sends > 1 THEN
          PERFORM pg_advisory_xact_lock(7302117, item.hour_key);
        ELSE
          PERFORM pg_advisory_xact_lock_shared(7302117, item.hour_key);
        END IF;
        INSERT INTO hourly_send_shards (workspace_id, hour, shard, count) VALUES (item.workspace, item.send_hour, send_shard, 0)
        ON CONFLICT DO NOTHING;
        PERFORM FROM hourly_send_shards
        WHERE workspace_id = item.workspace AND hour = item.send_hour AND shard = send_shard FOR UPDATE;
        hour_sends := (SELECT sum(count) FROM hourly_send_shards WHERE workspace_id = item.workspace AND hour = item.send_hour)
          + coalesce((SELECT count FROM hourly_sends WHERE workspace_id = item.workspace AND hour = item.send_hour), 0);
      END IF;
      IF item.message IS NOT NULL AND hour_sends + counted >= (item.value->>'hourly_limit')::integer THEN
        outcomes[item.n] := 'SV002';
      ELSE
        INSERT INTO phone_verifications SELECT created.*;
        IF item.message IS NOT NULL THEN
          INSERT INTO message_outbox SELECT (jsonb_populate_record(null::message_outbox, item.message)).*;
          counted := counted + 1;
        END IF;
        outcomes[item.n] := 'created';
      END IF;
    END IF;
    IF item.nth = item.in_hour AND counted > 0 THEN
      UPDATE hourly_send_shards SET count = count + counted
      WHERE workspace_id = item.workspace AND hour = item.send_hour AND shard = send_shard;
    END IF;
  END LOOP;
  RETURN outcomes;
END $$;
