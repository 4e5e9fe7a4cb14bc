-- A code check's write, for the checks that came in together: a failed attempt counted (the verification blocked at
-- `block_ats`) or the verification verified, each only while it is pending. Functions planned with sequential scans
-- off, whose rows are read by id alone: as prepared statements, a connection that planned them while the table was new
-- or small kept a generic plan that read a whole index or table, however large the table then grew. The rows are
-- locked in the order of their ids, as every statement that changes several verifications locks them.
CREATE FUNCTION svc_fail_attempts(ids text[], block_ats integer[]) RETURNS SETOF phone_verifications
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
BEGIN
  RETURN QUERY
  WITH attempted AS (
    SELECT v.id FROM phone_verifications v WHERE v.id = ANY(ids) ORDER BY v.id FOR UPDATE
  )
  UPDATE phone_verifications v
  SET failed_attempts = v.failed_attempts + 1,
    status = CASE WHEN v.failed_attempts + 1 >= a.block_at THEN 'blocked' ELSE v.status END
  FROM unnest(ids, block_ats) AS a(id, block_at)
  WHERE v.id = a.id AND v.id IN (SELECT t.id FROM attempted t) AND v.status = 'pending'
  RETURNING v.*;
END $$;
--> statement-breakpoint
CREATE FUNCTION svc_verify_codes(ids text[], ats text[]) RETURNS SETOF text
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
BEGIN
  RETURN QUERY
  WITH checked AS (
    SELECT v.id FROM phone_verifications v WHERE v.id = ANY(ids) ORDER BY v.id FOR UPDATE
  )
  UPDATE phone_verifications v
  SET status = 'verified', verified_at = a.at
  FROM unnest(ids, ats) AS a(id, at)
  WHERE v.id = a.id AND v.id IN (SELECT c.id FROM checked c) AND v.status = 'pending'
  RETURNING v.id;
END $$;
