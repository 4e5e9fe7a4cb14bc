import type { Logger } from '@svc/server-kit';
import type { CoreConfig } from '../platform/config.ts';
import type { SendResult } from './providers/message.ts';
import type { Messenger } from './providers/messenger.ts';
import type { DueMessage } from './store.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { createOutboxLoop, DeliveryError } from '../platform/outbox-loop.ts';
import type { Keyring } from '../platform/secrets.ts';
import type { SenderService } from './senders.ts';

export interface DeliveryDeps {
  store: Store;
  keyring: Keyring;
  senders: SenderService;
  messenger: Messenger;
  config: CoreConfig;
  clock: Clock;
  log: Logger;
}

/**
 * Codes in flight at once, per core: with a provider answering in 100-500 ms, up to 250-1,300 codes a second. At 32,
 * a core's sends fell behind its creates above about 1,400 a second even with a provider answering at once.
 */
const codesAtOnce = 128;

/** Core's delivery of one-time codes: the message outbox, sent through each workspace's sender. */
export function createDeliveryLoop({ store, keyring, senders, messenger, config, clock, log }: DeliveryDeps) {
  const now = () => clock().toISOString();
  return createOutboxLoop<DueMessage, SendResult>(
    {
      claim: (claim, limit) => store.outbox.claim(claim, limit),
      deadline: (message) => message.codeExpiresAt,
      renew: (held, until) => store.outbox.renew(held, until),
      async confirm(message, claimId, until) {
        const state = await store.outbox.confirm(message.id, claimId, now(), until);
        return state === 'settled' ? 'not sent: the verification is no longer pending (verified, blocked or expired)' : state === 'held';
      },
      async send(message) {
        const sender = await senders.resolve(message.workspaceId);
        if (!sender || !message.codeSealed) throw new DeliveryError('no sender is configured for this workspace', false);
        const result = await messenger(sender, {
          messageId: message.id,
          to: message.phoneNumber,
          code: keyring.decrypt(message.codeSealed),
          verificationId: message.verificationId,
          workspaceId: message.workspaceId,
          ttlMinutes: Math.round(config.otp.ttlSeconds / 60),
        });
        log.info({ verification: message.verificationId, sender: sender.kind }, 'code sent');
        return result;
      },
      sent: (message, claimId, result) => store.outbox.markSent(message.id, claimId, result.providerMessageId, now()),
      retry: (message, claimId, next, reason, unanswered) => store.outbox.markRetry(message.id, claimId, next, reason, unanswered),
      fail: (message, claimId, reason) => store.outbox.markFailed(message.id, claimId, reason, now()),
    },
    { name: 'messages', concurrency: codesAtOnce, ...config.delivery, clock, log },
  );
}

export type DeliveryLoop = ReturnType<typeof createDeliveryLoop>;
