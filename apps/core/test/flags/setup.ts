import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/server-kit';
import { createServices, type Services } from '../../src/services.ts';
import type { Membership } from '../../src/store.ts';
import { openTestStore } from '../test-stores.ts';

export const agentFiles = {
  'svc.yaml': 'workspace: acme\n',
  'agents/support/agent.yaml':
    'name: Support\nmodel: scripted\nscripted:\n  rules:\n    - when: "refund"\n      reply: "Refunds take 5 days."\n  fallback: Hello.\n',
  'agents/support/instructions.md': 'Help.',
};

export interface FlagWorld {
  services: Services;
  workspace: Membership;
  owner: { id: string; email: string };
  /** A chat on live where the visitor said each text in turn; the ids of the agent's replies, in order. */
  conversation(texts: string[], options?: { replay?: boolean }): Promise<{ chatId: string; replies: string[]; visitors: string[] }>;
  /** The version live has now (the one its replies come from). */
  live(): Promise<{ id: string; number: number }>;
  /** Publishes a new version of the support agent (its fallback changed) to live: the only kind of version that fixes a flag. */
  publishNext(): Promise<{ id: string; number: number }>;
}

/** Core's services on a fresh store (SQLite, or PostgreSQL with SVC_TEST_STORE=postgres), with `acme` owned by ada and its support agent live. Time moves 1 ms a read. */
export async function flagWorld(): Promise<FlagWorld> {
  let now = Date.parse('2026-03-01T12:00:00Z');
  const services = createServices({
    store: await openTestStore(),
    secretKey: randomBytes(32),
    log: createLogger('core', { LOG_LEVEL: 'silent' }),
    clock: () => new Date((now += 1)),
  });
  const owner = await services.identity.findOrCreateUser('ada@example.com');
  const workspace = await services.workspaces.create(owner.id, { slug: 'acme' });
  await services.deployments.push(workspace, owner.id, { environment: 'preview', files: agentFiles });
  await services.deployments.publish(workspace, 'preview');
  const live = async () => (await services.store.environments.get(workspace.id, 'live'))!.version!;
  let published = 1;
  return {
    services,
    workspace,
    owner,
    live,
    async publishNext() {
      published += 1;
      const files = { ...agentFiles, 'agents/support/instructions.md': `Help, v${published}.` };
      await services.deployments.push(workspace, owner.id, { environment: 'preview', files });
      await services.deployments.publish(workspace, 'preview');
      return live();
    },
    async conversation(texts, options = {}) {
      const chat = await services.chats.create(workspace.id, { agent: 'support', environment: 'live', channel: 'web', ...options });
      const replies: string[] = [];
      const visitors: string[] = [];
      for (const text of texts) {
        const sent = await services.chats.send(workspace.id, chat.chat_id, text);
        replies.push(sent.message_id);
        visitors.push(sent.visitor_message_id);
      }
      return { chatId: chat.chat_id, replies, visitors };
    },
  };
}
