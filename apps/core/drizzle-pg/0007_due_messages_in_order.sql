-- The messages a claim takes: the `max` that are due at `due_at` and not held by a live claim, oldest due first,
-- locked, skipping those another claim is locking. Read in the order of the due index, whatever the statistics say:
-- planned from statistics taken while few messages were pending (a burst of creates, a provider that was down),
-- the query would read every pending message and sort them, at each claim. A claim takes tens at most (ROWS), so the
-- messages taken are then found by their ids, not by reading the outbox.
CREATE FUNCTION svc_due_messages(due_at text, max integer) RETURNS SETOF text
LANGUAGE sql
ROWS 20
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
  SELECT id FROM message_outbox
  WHERE status = 'pending' AND next_attempt_at <= due_at AND (claimed_until IS NULL OR claimed_until < due_at)
  ORDER BY next_attempt_at
  LIMIT max
  FOR UPDATE SKIP LOCKED
$$;
