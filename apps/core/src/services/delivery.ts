import type { Logger } from '@svc/server-kit';
import type { CoreConfig } from '../config.ts';
import { DeliveryError } from '../messaging/message.ts';
import type { Messenger } from '../messaging/messenger.ts';
import type { OutboxMessage } from '../store/messaging-store.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from './clock.ts';
import type { Keyring } from './secrets.ts';
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

/** Messages sent at once: provider calls take ~100-500 ms, so one at a time would cap delivery at a few per second. */
const batchSize = 32;

/** Exponential backoff from `baseMs`, capped at a minute, with ±20 % jitter so retries do not stampede. */
export function backoffMs(attempt: number, baseMs: number): number {
  const delay = Math.min(baseMs * 2 ** (attempt - 1), 60_000);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/**
 * Core's delivery loop: drains the message outbox, sends each code through the workspace's sender,
 * retries network errors, 429 and 5xx with backoff, and gives up on other 4xx with the provider's error
 * recorded. Queued messages live in the database, so a restart picks them up where they were.
 */
export function createDeliveryLoop({ store, keyring, senders, messenger, config, clock, log }: DeliveryDeps) {
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  let again = false;

  async function deliver(message: OutboxMessage): Promise<void> {
    const at = clock().toISOString();
    const sender = await senders.resolve(message.workspaceId);
    const workspace = await store.workspaces.findById(message.workspaceId);
    if (!sender || !workspace || !message.codeSealed) {
      await store.outbox.markFailed(message.id, 'no sender is configured for this workspace', at);
      return;
    }
    try {
      const result = await messenger(sender, {
        to: message.phoneNumber,
        code: keyring.decrypt(message.codeSealed),
        verificationId: message.verificationId,
        workspaceId: message.workspaceId,
        workspaceSlug: workspace.slug,
        ttlMinutes: Math.round(config.otp.ttlSeconds / 60),
      });
      await store.outbox.markSent(message.id, result.providerMessageId, clock().toISOString());
      log.info({ verification: message.verificationId, sender: sender.kind }, 'code sent');
    } catch (error) {
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      const reason = (error as Error).message;
      const attempt = message.attempts + 1;
      if (retryable && attempt < config.delivery.maxAttempts) {
        const next = new Date(clock().getTime() + backoffMs(attempt, config.delivery.backoffBaseMs)).toISOString();
        await store.outbox.markRetry(message.id, next, reason);
        log.warn({ verification: message.verificationId, attempt, reason }, 'send failed; will retry');
      } else {
        await store.outbox.markFailed(message.id, reason, clock().toISOString());
        log.warn({ verification: message.verificationId, attempt, reason }, 'send failed; giving up');
      }
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const due = await store.outbox.due(clock().toISOString(), batchSize);
      await Promise.all(due.map(deliver));
      if (due.length === batchSize) again = true;
    } while (again);
  }

  /** Runs a drain now, or once more after the one under way: never two at once. */
  function kick(): Promise<void> {
    if (draining) {
      again = true;
      return draining;
    }
    draining = drain()
      .catch((error: unknown) => log.error({ err: error }, 'delivery loop failed'))
      .finally(() => {
        draining = undefined;
      });
    return draining;
  }

  return {
    kick,
    start() {
      timer = setInterval(() => void kick(), config.delivery.pollMs);
      void kick();
    },
    async stop() {
      clearInterval(timer);
      await draining;
    },
  };
}

export type DeliveryLoop = ReturnType<typeof createDeliveryLoop>;
