/** A claim on outbox items or a key: who takes them, at what moment, and until when no other claimer gets them. */
export interface Claim {
  id: string;
  now: string;
  until: string;
}

/** An item of an outbox and the claim a core holds it under. */
export interface HeldItem {
  id: string;
  claimId: string;
}

/** What an outbox has still to send: how many, and when the oldest of them was queued (null when none). */
export interface Backlog {
  pending: number;
  oldestQueuedAt: string | null;
}
