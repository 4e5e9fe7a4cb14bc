-- Creates of one workspace's hour that arrive together go in one batch. A batch that counts several sends in an hour
-- holds the hour's lock alone (an advisory lock of the workspace and hour), while every other send of the hour takes
-- it shared: such a batch sees every send committed before it and is seen whole by the sends after it, so it never
-- passes the hourly cap, and a core's sends that other cores may miss are still one at most.
CREATE OR REPLACE FUNCTION svc_count_send(workspace text, send_hour text, send_shard integer, hourly_limit integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7302117, hashtext(workspace || ' ' || send_hour));
  INSERT INTO hourly_send_shards (workspace_id, hour, shard, count) VALUES (workspace, send_hour, send_shard, 0)
  ON CONFLICT DO NOTHING;
  PERFORM FROM hourly_send_shards WHERE workspace_id = workspace AND hour = send_hour AND shard = send_shard FOR UPDATE;
  IF (SELECT sum(count) FROM hourly_send_shards WHERE workspace_id = workspace AND hour = send_hour)
    + coalesce((SELECT count FROM hourly_sends WHERE workspace_id = workspace AND hour = send_hour), 0) >= hourly_limit THEN
    RAISE EXCEPTION 'the hourly sends of workspace % are used up', workspace USING ERRCODE = 'SV002';
  END IF;
  UPDATE hourly_send_shards SET count = count + 1 WHERE workspace_id = workspace AND hour = send_hour AND shard = send_shard;
END $$;
--> statement-breakpoint
-- As in migration 0005, with any number of creates of an hour: a batch takes its numbers' locks (by key), then, hour
-- by hour in the order of workspace and hour, the lock of each hour it counts several sends in, alone, before it runs
-- that hour's creates.
CREATE OR REPLACE FUNCTION svc_create_verifications(creates jsonb, send_shard integer) RETURNS text[]
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
    SELECT value, n,
      hashtext(workspace || ' ' || (value->>'send_hour')) AS hour_key,
      row_number() OVER hour_creates AS nth,
      count(*) FILTER (WHERE coalesce(value->'message', 'null'::jsonb) <> 'null'::jsonb) OVER hour_creates AS sends
    FROM jsonb_array_elements(creates) WITH ORDINALITY AS c(value, n),
      LATERAL (SELECT value->'verification'->>'workspace_id' AS workspace) AS w
    WINDOW hour_creates AS (PARTITION BY workspace, value->>'send_hour' ORDER BY n
      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ORDER BY workspace, value->>'send_hour', n
  LOOP
    IF item.nth = 1 AND item.sends > 1 THEN
      PERFORM pg_advisory_xact_lock(7302117, item.hour_key);
    END IF;
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
