import { DomainError, type SenderInput, type SenderKind, type SenderView, senderSecretFields } from '@svc/domain';
import type { CoreConfig } from '../platform/config.ts';
import { ChangeCache } from '../platform/change-cache.ts';
import type { Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';
import type { Keyring } from '../platform/secrets.ts';

/** A sender with its secrets decrypted, ready to send with. */
export interface ResolvedSender {
  kind: SenderKind;
  config: Record<string, string>;
  /** Where the provider posts this sender's delivery statuses (workspace slugs never change). */
  webhookUrl: string | null;
}

const webhookPaths: Partial<Record<SenderKind, string>> = {
  whatsapp_cloud: 'whatsapp',
  twilio_whatsapp: 'twilio',
};

function webhookUrl(config: CoreConfig, kind: SenderKind, workspaceSlug: string): string | null {
  const path = webhookPaths[kind];
  return path ? `${config.publicUrl}/webhooks/${path}/${workspaceSlug}` : null;
}

export function createSenderService(store: Store, keyring: Keyring, config: CoreConfig, clock: Clock) {
  // Every code sent reads its workspace's sender twice (create, delivery): the decrypted senders are kept a minute,
  // until any core writes the workspace's sender.
  const resolved = new ChangeCache<ResolvedSender>({
    changes: store.changes,
    topic: 'senders',
    ttlMs: 60_000,
    maxEntries: 10_000,
    now: () => clock().getTime(),
  });

  /** Writes a sender: its secret fields sealed, the rest kept as given. */
  async function writeSender(workspaceId: string, kind: SenderKind, fields: Record<string, unknown>, updatedAt: string): Promise<void> {
    const visible: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (name === 'kind' || value === undefined) continue;
      if ((senderSecretFields as readonly string[]).includes(name)) secrets[name] = String(value);
      else visible[name] = String(value);
    }
    try {
      await store.senders.put({
        workspaceId,
        kind,
        config: visible,
        secretsSealed: Object.keys(secrets).length > 0 ? keyring.encrypt(JSON.stringify(secrets)) : null,
        updatedAt,
      });
    } finally {
      await store.changes.publish('senders', workspaceId);
    }
  }

  const unseal = (sealed: string | null): Record<string, string> =>
    sealed ? (JSON.parse(keyring.decrypt(sealed)) as Record<string, string>) : {};

  /** The sender to send with, read and decrypted. */
  async function resolveNow(workspaceId: string): Promise<ResolvedSender | undefined> {
    const record = await store.senders.get(workspaceId);
    const workspace = record && (await store.workspaces.findById(workspaceId));
    const secrets = unseal(record?.secretsSealed ?? null);
    return record
      ? {
          kind: record.kind,
          config: { ...record.config, ...secrets },
          webhookUrl: workspace ? webhookUrl(config, record.kind, workspace.slug) : null,
        }
      : config.localMode
        ? { kind: 'dev', config: {}, webhookUrl: null }
        : undefined;
  }

  return {
    /** Replaces the workspace's sender; secret fields are sealed, the rest kept as given. */
    async put(workspaceId: string, input: SenderInput): Promise<void> {
      await writeSender(workspaceId, input.kind, input, isoNow(clock));
    },

    /**
     * Seals the secret fields that senders written before those fields counted as secrets (the webhook verify
     * token) still hold in the clear. Run at start, before core serves; a sender already sealed is left alone.
     */
    async sealClearSecrets(): Promise<number> {
      let sealed = 0;
      for (const field of senderSecretFields) {
        for (const record of await store.senders.withClearField(field)) {
          await writeSender(record.workspaceId, record.kind, { ...record.config, ...unseal(record.secretsSealed) }, record.updatedAt);
          sealed += 1;
        }
      }
      return sealed;
    },

    /** The sender as the API shows it: never a secret, only which secrets are set. */
    async view(workspaceId: string, workspaceSlug: string): Promise<SenderView> {
      const record = await store.senders.get(workspaceId);
      if (!record) {
        if (!config.localMode) throw new DomainError('sender_not_configured', 'this workspace has no sender yet');
        return { kind: 'dev', config: {}, secrets_set: [], webhook_url: null, updated_at: null };
      }
      const secrets = Object.keys(unseal(record.secretsSealed));
      return {
        kind: record.kind,
        config: record.config,
        secrets_set: secrets.sort(),
        webhook_url: webhookUrl(config, record.kind, workspaceSlug),
        updated_at: record.updatedAt,
      };
    },

    /** The sender to send with; in local mode a workspace without one uses the dev sender. */
    resolve(workspaceId: string): Promise<ResolvedSender | undefined> {
      return resolved.get(workspaceId, () => resolveNow(workspaceId));
    },
  };
}

export type SenderService = ReturnType<typeof createSenderService>;
