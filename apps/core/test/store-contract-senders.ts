import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = '2026-01-01T00:00:00.000Z';

/** What every Store must do with senders (run against each implementation, like the main contract). */
export function describeSenderStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: senders`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    it('finds the senders whose clear config holds a field, and only those', async () => {
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
      for (const slug of ['acme', 'beta', 'gamma'])
        await store.workspaces.createWithOwner({ id: `ws_${slug}`, slug, name: null, createdAt: at }, 'usr_1');
      const sender = { kind: 'whatsapp_cloud' as const, secretsSealed: 'v1.sealed', updatedAt: at };
      await store.senders.put({ ...sender, workspaceId: 'ws_acme', config: { template: 'otp', webhook_verify_token: 'in-the-clear' } });
      await store.senders.put({ ...sender, workspaceId: 'ws_beta', config: { template: 'otp' } });
      await store.senders.put({ ...sender, workspaceId: 'ws_gamma', config: { template: 'webhook_verify_token' } });
      expect(await store.senders.withClearField('webhook_verify_token')).toEqual([
        { ...sender, workspaceId: 'ws_acme', config: { template: 'otp', webhook_verify_token: 'in-the-clear' } },
      ]);
      await store.senders.put({ ...sender, workspaceId: 'ws_acme', config: { template: 'otp' } });
      expect(await store.senders.withClearField('webhook_verify_token')).toEqual([]);
    });
  });
}
