import type { DeviceAuthorizationRecord } from '../src/identity/store.ts';
import { type EvalRunRecord, newRunCounts, pendingExecution } from '../src/evals/store.ts';
import type { IdempotencyScope, PhoneVerification, StoredResponse } from '../src/verification/store.ts';
import type { Store } from '../src/store.ts';

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
  lastSendKey: null,
  ...record,
});

/** An answer stored under an Idempotency-Key at `at`, as a request that claimed the key and finished leaves it. */
export async function storeAnswer(store: Store, scope: IdempotencyScope, stored: StoredResponse, at: string): Promise<void> {
  const claim = { id: `claim_${scope.key}`, now: at, until: at };
  await store.idempotency.claim(scope, stored.requestHash, claim, at);
  await store.idempotency.answer(scope, claim.id, stored.response, at);
}

/** Workspace `ws_1` of `usr_ada`, its version `ver_1` and these eval cases of agent `support`: what runs are made on. */
export async function evalsWorkspace(store: Store, caseIds: string[], at: string): Promise<void> {
  await store.users.create({ id: 'usr_ada', email: 'ada@example.com', createdAt: at });
  await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_ada');
  const version = { id: 'ver_1', workspaceId: 'ws_1', contentHash: 'sha256:a', files: {}, gitCommit: null, gitBranch: null };
  await store.versions.create({ ...version, authorId: 'usr_ada', createdAt: at });
  for (const id of caseIds) {
    const made = { workspaceId: 'ws_1', agent: 'support', turns: ['hi'], expected: 'says "hello"', originFlagId: null };
    await store.evalCases.create({ id, ...made, createdBy: 'ada@example.com', createdAt: at, updatedAt: at, deletedAt: null });
  }
}

/** Starts a run of these cases on live's `ver_1` of `ws_1`, each replayed `repeat` times (`<run>_<case>_<attempt>`). */
export async function startEvalRun(store: Store, id: string, cases: string[], at: string, changes: Partial<EvalRunRecord> = {}) {
  const run: EvalRunRecord = {
    id,
    workspaceId: 'ws_1',
    environment: 'live',
    agent: null,
    version: { id: 'ver_1', number: 1 },
    trigger: 'manual',
    repeat: 1,
    minPass: 1,
    grader: 'deterministic',
    agentModels: ['scripted'],
    status: 'queued',
    baselineRunId: null,
    skipped: [],
    createdBy: 'ada@example.com',
    createdAt: at,
    finishedAt: null,
    counts: newRunCounts(cases.length),
    ...changes,
  };
  const executions = cases.flatMap((caseId) =>
    Array.from({ length: run.repeat }, (_, i) =>
      pendingExecution({ id: `${id}_${caseId}_${i + 1}`, runId: id, caseId, attempt: i + 1, agent: 'support', judge: null }),
    ),
  );
  await store.evalRuns.create(run, executions);
  return run;
}
