import { randomInt } from 'node:crypto';
import { codeLength, DomainError, maxFailedAttempts, type VerificationCreated, type VerificationView } from '@svc/domain';
import type { CoreConfig } from '../platform/config.ts';
import { HourlyLimitReached, NumberAtLimit, type PhoneVerification, VerificationChanged } from './store.ts';
import { ChangeCache } from '../platform/change-cache.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { enforceNumberLimit, hourUsedUp, sendWindowStart } from './send-limits.ts';
import { type Keyring, sha256 } from '../platform/secrets.ts';
import type { SenderService } from './senders.ts';

export interface VerificationDeps {
  store: Store;
  keyring: Keyring;
  senders: SenderService;
  config: CoreConfig;
  clock: Clock;
  /** Called after a message is queued, so delivery starts without waiting for the next poll. */
  onQueued: () => void;
}

/** Races on one number a create may lose before it answers 409 (each lost race means another create sent a code). */
const maxRaces = 5;

const newCode = () => String(randomInt(0, 10 ** codeLength)).padStart(codeLength, '0');

const secondsUntil = (iso: string, now: Date) => Math.max(1, Math.ceil((Date.parse(iso) - now.getTime()) / 1000));

export function createVerificationService({ store, keyring, senders, config, clock, onQueued }: VerificationDeps) {
  const codeHmac = (verificationId: string, code: string) => keyring.hmac(`${verificationId}:${code}`);

  // Every create asks whether its number is a test number: each workspace's sealed test codes are kept a minute,
  // until any core writes the workspace's test numbers.
  const testCodes = new ChangeCache<Map<string, string>>({
    changes: store.changes,
    topic: 'test-numbers',
    ttlMs: 60_000,
    maxEntries: 10_000,
    now: () => clock().getTime(),
  });
  async function sealedTestCode(workspaceId: string, phoneNumber: string): Promise<string | undefined> {
    const codes = await testCodes.get(
      workspaceId,
      async () => new Map((await store.testNumbers.list(workspaceId)).map((n) => [n.phoneNumber, n.codeSealed])),
    );
    return codes?.get(phoneNumber);
  }

  function statusOf(v: Pick<PhoneVerification, 'status' | 'expiresAt'>, now: Date): VerificationView['status'] {
    return v.status === 'pending' && Date.parse(v.expiresAt) <= now.getTime() ? 'expired' : v.status;
  }

  const notFound = (id: string) => new DomainError('verification_not_found', `no verification ${id} in this workspace`);

  async function find(workspaceId: string, id: string): Promise<PhoneVerification> {
    const verification = await store.verifications.get(workspaceId, id);
    if (!verification) throw notFound(id);
    return verification;
  }

  /** Throws the answer of a verification that is verified, blocked or expired. */
  function refuseUnlessPending(v: Pick<PhoneVerification, 'status' | 'expiresAt'>, now: Date): void {
    const status = statusOf(v, now);
    if (status === 'verified') {
      throw new DomainError('already_verified', 'this verification already succeeded', { details: { verified: true } });
    }
    if (status === 'blocked') {
      throw new DomainError('verification_blocked', `blocked after ${maxFailedAttempts} failed attempts; start a new verification`, {
        details: { verified: false, attempts_left: 0 },
      });
    }
    if (status === 'expired') {
      throw new DomainError('verification_expired', 'this verification expired; start a new one', {
        details: { verified: false },
      });
    }
  }

  /**
   * Sends a code: for a new verification, or fresh for the pending one of the number once the resend wait is over.
   * `assumeClear` skips reading the number's state and creates at once, on the condition that the number has no
   * pending code and sends to spare (NumberAtLimit or VerificationChanged when it has not): one write for the usual
   * create.
   */
  async function start(
    workspaceId: string,
    phoneNumber: string,
    sendKey: string | null,
    assumeClear: boolean,
  ): Promise<VerificationCreated> {
    const now = clock();
    const testCode = await sealedTestCode(workspaceId, phoneNumber);
    const testNumber = testCode !== undefined;
    const sender = testNumber ? undefined : await senders.resolve(workspaceId);
    if (!testNumber && !sender) {
      throw new DomainError('sender_not_configured', 'configure a sender for this workspace before sending codes');
    }
    const numberLimit = { since: sendWindowStart(config, now), limit: config.otp.numberLimit };
    const { pending, recentSendTimes } = assumeClear
      ? { pending: undefined, recentSendTimes: [] }
      : await store.verifications.sendState(workspaceId, phoneNumber, now.toISOString(), numberLimit.since, numberLimit.limit);
    // This very create, made before its answer was lost (its core stopped): the same answer.
    if (pending && sendKey !== null && pending.lastSendKey === sendKey)
      return { verification_id: pending.id, expires_at: pending.expiresAt };
    if (pending) {
      const resendAt = new Date(Date.parse(pending.lastSentAt) + config.otp.resendSeconds * 1000).toISOString();
      if (Date.parse(resendAt) > now.getTime()) {
        const retryAfter = secondsUntil(resendAt, now);
        throw new DomainError('resend_too_soon', `wait ${retryAfter} s before sending another code to this number`, {
          details: { verification_id: pending.id, expires_at: pending.expiresAt, retry_after_seconds: retryAfter },
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
    if (!testNumber) enforceNumberLimit(config, recentSendTimes, now);

    const id = pending?.id ?? newId('pv');
    const code = testNumber ? keyring.decrypt(testCode) : newCode();
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + config.otp.ttlSeconds * 1000).toISOString();
    const message = testNumber
      ? null
      : { id: newId('msg'), workspaceId, verificationId: id, phoneNumber, codeSealed: keyring.encrypt(code), createdAt: at };
    const deliveryStatus = testNumber ? ('not_sent' as const) : ('queued' as const);
    const hourlyLimit = config.otp.workspaceHourlyLimit;
    try {
      if (pending) {
        await store.verifications.resend(
          id,
          pending.lastSentAt,
          { codeHmac: codeHmac(id, code), expiresAt, lastSentAt: at, deliveryStatus, lastSendKey: sendKey },
          message,
          hourlyLimit,
        );
      } else {
        await store.verifications.create(
          {
            id,
            workspaceId,
            phoneNumber,
            codeHmac: codeHmac(id, code),
            status: 'pending',
            failedAttempts: 0,
            sendCount: 1,
            testNumber,
            expiresAt,
            lastSentAt: at,
            verifiedAt: null,
            deliveryStatus,
            deliveryError: null,
            deliveryUpdatedAt: at,
            lastSendKey: sendKey,
            createdAt: at,
          },
          message,
          hourlyLimit,
          assumeClear && !testNumber ? numberLimit : undefined,
        );
      }
    } catch (error) {
      if (error instanceof HourlyLimitReached) throw hourUsedUp(config, error.hour, now);
      throw error;
    }
    if (message) onQueued();
    return { verification_id: id, expires_at: expiresAt };
  }

  return {
    /**
     * Starts a verification, or re-sends a fresh code for the pending one of the same number.
     * The message is queued in the same transaction: the answer means queued, never delivered. A create asked with an
     * `idempotencyKey` keeps a digest of it on the verification.
     */
    async create(workspaceId: string, phoneNumber: string, idempotencyKey?: string): Promise<VerificationCreated> {
      const sendKey = idempotencyKey === undefined ? null : sha256(idempotencyKey);
      // The store keeps one pending verification per number and one code per send, against creates in any core: a
      // create that lost a race starts over and answers as if it came after the winner (mostly resend_too_soon).
      // The first try assumes a number with no pending code and sends to spare; one that has either is read and decided.
      try {
        return await start(workspaceId, phoneNumber, sendKey, true);
      } catch (error) {
        if (!(error instanceof VerificationChanged || error instanceof NumberAtLimit)) throw error;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await start(workspaceId, phoneNumber, sendKey, false);
        } catch (error) {
          if (!(error instanceof VerificationChanged)) throw error;
          if (attempt === maxRaces) {
            throw new DomainError('conflict', 'codes were being sent to this number at the same time; retry the request');
          }
        }
      }
    },

    /**
     * Checks a code: every terminal state answers with its own status and code. Verifies that arrive together
     * answer as if one at a time: the store checks, and verifies or counts a failure, in one step, only while the
     * verification is pending, and a verify that finds it no longer pending answers with the state another one left
     * it in. So exactly five failures are counted (attempts left 4 to 0), and every answer after the fifth is 423.
     */
    async verify(workspaceId: string, id: string, code: string): Promise<{ verified: true }> {
      const now = clock();
      const checked = await store.verifications.check(workspaceId, id, codeHmac(id, code), now.toISOString(), maxFailedAttempts);
      if (!checked) throw notFound(id);
      if (checked.outcome === 'verified') return { verified: true };
      if (checked.outcome === 'none') {
        refuseUnlessPending(checked.verification, now);
        throw new Error(`verification ${id} is pending, yet its check changed nothing`);
      }
      const after = checked.verification;
      const attemptsLeft = Math.max(0, maxFailedAttempts - after.failedAttempts);
      throw new DomainError(
        'incorrect_code',
        attemptsLeft > 0
          ? `wrong code; ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left`
          : 'wrong code; the verification is now blocked',
        { details: { verified: false, attempts_left: attemptsLeft } },
      );
    },

    async get(workspaceId: string, id: string): Promise<VerificationView> {
      const v = await find(workspaceId, id);
      return {
        verification_id: v.id,
        phone_number: v.phoneNumber,
        status: statusOf(v, clock()),
        attempts_left: Math.max(0, maxFailedAttempts - v.failedAttempts),
        expires_at: v.expiresAt,
        delivery: { status: v.deliveryStatus, error: v.deliveryError, updated_at: v.deliveryUpdatedAt },
        test_number: v.testNumber,
        created_at: v.createdAt,
      };
    },

    async setTestNumbers(workspaceId: string, numbers: { phone_number: string; code: string }[]): Promise<void> {
      const unique = new Map(numbers.map((n) => [n.phone_number, n.code]));
      try {
        await store.testNumbers.replace(
          workspaceId,
          [...unique].map(([phoneNumber, code]) => ({ phoneNumber, codeSealed: keyring.encrypt(code) })),
          clock().toISOString(),
        );
      } finally {
        await store.changes.publish('test-numbers', workspaceId);
      }
    },

    async listTestNumbers(workspaceId: string): Promise<{ test_numbers: { phone_number: string }[] }> {
      const numbers = await store.testNumbers.list(workspaceId);
      return { test_numbers: numbers.map((n) => ({ phone_number: n.phoneNumber })) };
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
