import type { DeviceAuthorizationRecord } from '../src/store/auth-store.ts';
import type { IdempotencyScope, PhoneVerification, StoredResponse } from '../src/store/messaging-store.ts';
import type { Store } from '../src/store/store.ts';

/** A pending device authorization of the CLI, named by `id`, with whatever else a test sets. */
export const deviceAuthorizationRecord = (
  record: Pick<DeviceAuthorizationRecord, 'id' | 'createdAt' | 'expiresAt'> & Partial<DeviceAuthorizationRecord>,
): DeviceAuthorizationRecord => ({
  deviceCodeHash: `hash_${record.id}`,
  userCodeHash: `user_code_hash_${record.id}`,
  status: 'pending',
  intervalSeconds: 5,
  lastPolledAt: null,
  clientName: 'svc CLI',
  clientHostname: null,
  clientIp: null,
  clientUserAgent: null,
  email: null,
  userId: null,
  tokenId: null,
  decidedAt: null,
  ...record,
});

/** A pending verification of workspace `ws_1`, sent once when it was made. */
export const phoneVerificationRecord = (
  record: Pick<PhoneVerification, 'id' | 'phoneNumber' | 'createdAt' | 'expiresAt'> & Partial<PhoneVerification>,
): PhoneVerification => ({
  workspaceId: 'ws_1',
  codeHmac: 'aa',
  status: 'pending',
  failedAttempts: 0,
  sendCount: 1,
  testNumber: false,
  lastSentAt: record.createdAt,
  verifiedAt: null,
  deliveryStatus: 'queued',
  deliveryError: null,
  deliveryUpdatedAt: record.createdAt,
  ...record,
});

/** An answer stored under an Idempotency-Key at `at`, as a request that claimed the key and finished leaves it. */
export async function storeAnswer(store: Store, scope: IdempotencyScope, stored: StoredResponse, at: string): Promise<void> {
  const claim = { id: `claim_${scope.key}`, now: at, until: at };
  await store.idempotency.claim(scope, stored.requestHash, claim, at);
  await store.idempotency.answer(scope, claim.id, stored.response, at);
}
