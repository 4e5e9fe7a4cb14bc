-- A send's finish (the message found by its id and the claim that holds it, and the delivery of its verification while
-- still `queued`) as a function planned with sequential scans off. As a prepared statement, a connection that planned
-- it while the outbox was new or small kept that generic plan, a scan of the whole outbox, however large the outbox
-- then grew: with statistics that are never refreshed (autovacuum off), for good. The outbox rows are locked first,
-- then the verifications' in the order of their ids, the order in which a resend locks them too.
CREATE FUNCTION svc_finish_messages(
  ids text[], claim_ids text[], statuses text[], provider_message_ids text[], errors text[], ats text[]
) RETURNS TABLE (finished_id text, finished_claim_id text)
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
BEGIN
  RETURN QUERY
  WITH input AS (
    SELECT * FROM unnest(ids, claim_ids, statuses, provider_message_ids, errors, ats)
      AS i(id, claim_id, status, provider_message_id, error, at)
  ),
  finished AS (
    UPDATE message_outbox m
    SET status = i.status, code_sealed = null, provider_message_id = i.provider_message_id, last_error = i.error,
      sent_at = CASE WHEN i.status = 'sent' THEN i.at END, attempts = m.attempts + 1, claim_id = null, claimed_until = null
    FROM input i
    WHERE m.id = i.id AND m.claim_id = i.claim_id
    RETURNING m.id, i.claim_id, m.verification_id, i.status, i.error, i.at
  ),
  queued AS (
    SELECT v.id FROM phone_verifications v JOIN finished f ON v.id = f.verification_id
    WHERE v.delivery_status = 'queued'
    ORDER BY v.id
    FOR UPDATE OF v
  ),
  delivered AS (
    UPDATE phone_verifications v
    SET delivery_status = f.status, delivery_error = f.error, delivery_updated_at = f.at
    FROM finished f
    WHERE v.id = f.verification_id AND v.id IN (SELECT q.id FROM queued q) AND v.delivery_status = 'queued'
  )
  SELECT f.id, f.claim_id FROM finished f;
END $$;
--> statement-breakpoint
-- Room on each page for the new versions of a row's updates (a claim, a send's finish, a delivery's status, a failed
-- attempt): an update whose columns no index holds then stays on its page and writes no index entries (HOT).
ALTER TABLE message_outbox SET (fillfactor = 70);
--> statement-breakpoint
ALTER TABLE phone_verifications SET (fillfactor = 70);
