-- A code's check, for the checks that came in together, in one statement: each verification of its workspace that is
-- pending and unexpired at `at` is verified when the check's HMAC is its code's (compared as digests of the two, so
-- that the time taken says nothing of how much of them matched), else a failed attempt is counted, blocking it at
-- its `block_at`; one that is not is left as it is ('refused'). Answers each check's outcome and the verification as it
-- left it. Planned with sequential scans off, its rows read by id alone: as prepared statements, the check's writes
-- of a connection that planned them while the table was new or small kept a generic plan that read a whole index,
-- however large the table then grew. The rows are locked in the order of their ids, as every statement that changes
-- several verifications locks them.
CREATE FUNCTION svc_check_codes(ids text[], workspace_ids text[], code_hmacs text[], ats text[], block_ats integer[])
RETURNS TABLE (outcome text, verification jsonb)
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
BEGIN
  RETURN QUERY
  WITH input AS (
    SELECT * FROM unnest(ids, workspace_ids, code_hmacs, ats, block_ats) AS i(id, workspace_id, code_hmac, at, block_at)
  ),
  locked AS (
    SELECT v.id, i.at, i.block_at, to_jsonb(v) AS found, CASE
        WHEN v.status <> 'pending' OR v.expires_at <= i.at THEN 'refused'
        WHEN sha256(convert_to(v.code_hmac, 'UTF8')) = sha256(convert_to(i.code_hmac, 'UTF8')) THEN 'verified'
        ELSE 'failed'
      END AS outcome
    FROM phone_verifications v JOIN input i ON v.id = i.id AND v.workspace_id = i.workspace_id
    ORDER BY v.id
    FOR UPDATE OF v
  ),
  changed AS (
    UPDATE phone_verifications v
    SET status = CASE WHEN l.outcome = 'verified' THEN 'verified'
        WHEN v.failed_attempts + 1 >= l.block_at THEN 'blocked' ELSE v.status END,
      verified_at = CASE WHEN l.outcome = 'verified' THEN l.at ELSE v.verified_at END,
      failed_attempts = v.failed_attempts + CASE WHEN l.outcome = 'failed' THEN 1 ELSE 0 END
    FROM locked l
    WHERE v.id = l.id AND l.outcome <> 'refused'
    RETURNING v.*
  )
  SELECT l.outcome, coalesce(to_jsonb(c), l.found) FROM locked l LEFT JOIN changed c ON c.id = l.id;
END $$;
