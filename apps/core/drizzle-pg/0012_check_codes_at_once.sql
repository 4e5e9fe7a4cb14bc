-- Two HMACs (hex) compared in constant time: every byte is read, whichever differ.
CREATE FUNCTION svc_digests_equal(a text, b text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT
AS $$
  SELECT length(a) = length(b) AND (
    SELECT bit_or(get_byte(x, i) # get_byte(y, i)) = 0
    FROM (SELECT decode(a, 'hex') AS x, decode(b, 'hex') AS y) bytes, generate_series(0, length(a) / 2 - 1) AS i
  )
$$;
--> statement-breakpoint
-- A code check in one statement, for the checks that came in together, in their order: while a verification of the
-- check's workspace is pending and unexpired at the check's time, the code's HMAC verifies it if it is the
-- verification's, else counts a failed attempt (blocked at `block_ats`). Each check of a verification its workspace
-- has comes back, by its position `n`, with what it did ('verified', 'failed', or 'none': no longer pending, or
-- expired) and the state it left. Checks of one verification that came in together are made in turn, so they never
-- wait on each other. The rows are locked first, in the order of their ids, as every statement that changes several
-- verifications locks them; each check then reads its row as the checks before it left it.
-- Replaces svc_fail_attempts and svc_verify_codes, left for cores of the version before while they run.
CREATE FUNCTION svc_check_codes(workspace_ids text[], ids text[], code_hmacs text[], ats text[], block_ats integer[])
RETURNS TABLE (n integer, outcome text, status text, failed_attempts integer, expires_at text)
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
  locked_ids text[];
  locked_workspaces text[];
  locked_hmacs text[];
  i integer;
  matched boolean;
  c record;
  v record;
BEGIN
  SELECT coalesce(array_agg(locked.id), '{}'), coalesce(array_agg(locked.workspace_id), '{}'), coalesce(array_agg(locked.code_hmac), '{}')
  INTO locked_ids, locked_workspaces, locked_hmacs
  FROM (SELECT p.id, p.workspace_id, p.code_hmac FROM phone_verifications p WHERE p.id = ANY(ids) ORDER BY p.id FOR UPDATE) locked;
  FOR c IN
    SELECT * FROM unnest(workspace_ids, ids, code_hmacs, ats, block_ats) WITH ORDINALITY
      AS c(workspace_id, id, code_hmac, at, block_at, n)
    ORDER BY c.n
  LOOP
    i := array_position(locked_ids, c.id);
    CONTINUE WHEN i IS NULL OR locked_workspaces[i] <> c.workspace_id;
    matched := svc_digests_equal(locked_hmacs[i], c.code_hmac);
    UPDATE phone_verifications p
    SET status = CASE WHEN matched THEN 'verified' WHEN p.failed_attempts + 1 >= c.block_at THEN 'blocked' ELSE p.status END,
      verified_at = CASE WHEN matched THEN c.at ELSE p.verified_at END,
      failed_attempts = p.failed_attempts + CASE WHEN matched THEN 0 ELSE 1 END
    WHERE p.id = c.id AND p.status = 'pending' AND p.expires_at > c.at
    RETURNING p.status, p.failed_attempts, p.expires_at INTO v;
    IF FOUND THEN
      RETURN QUERY SELECT c.n::integer, CASE WHEN matched THEN 'verified' ELSE 'failed' END, v.status, v.failed_attempts, v.expires_at;
    ELSE
      RETURN QUERY SELECT c.n::integer, 'none', p.status, p.failed_attempts, p.expires_at FROM phone_verifications p WHERE p.id = c.id;
    END IF;
  END LOOP;
END $$;
