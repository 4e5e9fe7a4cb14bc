import type { Logger } from '@svc/server-kit';
import { type CoreConfig, defaultConfig } from '../config.ts';
import { createMessenger } from '../messaging/messenger.ts';
import type { Store } from '../store/store.ts';
import { type Clock, systemClock } from './clock.ts';
import { createDeliveryLoop } from './delivery.ts';
import { createIdempotency } from './idempotency.ts';
import { createIdentityService } from './identity.ts';
import { createProviderWebhooks } from './provider-webhooks.ts';
import { Keyring } from './secrets.ts';
import { createSenderService } from './senders.ts';
import { createVerificationService } from './verifications.ts';
import { createWorkspaceService } from './workspaces.ts';

export interface ServiceOptions {
  store: Store;
  /** SVC_SECRET_KEY: derives the code HMAC key and the key that seals secrets at rest. */
  secretKey: Buffer;
  log: Logger;
  config?: CoreConfig;
  clock?: Clock;
}

export function createServices({ store, secretKey, log, config = defaultConfig, clock = systemClock }: ServiceOptions) {
  const keyring = new Keyring(secretKey);
  const senders = createSenderService(store, keyring, config, clock);
  const delivery = createDeliveryLoop({
    store,
    keyring,
    senders,
    messenger: createMessenger(store, config, log, () => clock().toISOString()),
    config,
    clock,
    log,
  });
  return {
    store,
    clock,
    config,
    identity: createIdentityService(store, clock),
    workspaces: createWorkspaceService(store, clock),
    senders,
    verifications: createVerificationService({ store, keyring, senders, config, clock, onQueued: () => void delivery.kick() }),
    idempotency: createIdempotency(store, clock),
    webhooks: createProviderWebhooks(store, senders, clock),
    delivery,
  };
}

export type Services = ReturnType<typeof createServices>;
