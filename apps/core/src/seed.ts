import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBundleFiles } from '@svc/domain/bundle-files';
import type { Services } from './services.ts';

export const devUserEmail = 'dev@example.com';
export const demoWorkspaceSlug = 'demo';
export const devTokenFile = 'dev-token';

/** The demo agent's repository, deployed by the seed exactly as `svc push` deploys a repository. */
export const demoRepository = fileURLToPath(new URL('../../../examples/demo', import.meta.url));

/** A few conversations so the inbox has real content on first start. */
const demoConversations = [
  ['Hi, where is my order A-1001?'],
  ['Can I return shoes I bought last week?', 'How long does the refund take?'],
  ['Do you ship express?', 'And what about order A-1002?'],
];

/** A reply flagged with a note, so `svc flags` shows a real digest on first start: the one to this visitor message. */
export const demoFlag = {
  visitorText: 'How long does the refund take?',
  note: 'Answer only the question asked, in one sentence: "Your refund reaches your original payment method within 5 business days" of the return arriving. Do not paste the whole returns policy.',
};

export interface DemoBackend {
  url: string;
  token: string;
}

async function seedDemoAgent(services: Services, userId: string, backend: DemoBackend): Promise<void> {
  const workspace = await services.workspaces.resolve(demoWorkspaceSlug, userId);
  await services.deployments.push(workspace, userId, { environment: 'preview', files: await readBundleFiles(demoRepository) });
  await services.deployments.publish(workspace, 'preview');
  for (const environment of ['preview', 'live']) {
    await services.deployments.setSecret(workspace.id, environment, 'BACKEND_URL', backend.url);
    await services.deployments.setSecret(workspace.id, environment, 'BACKEND_TOKEN', backend.token);
  }
  const replies = new Map<string, string>();
  for (const messages of demoConversations) {
    const chat = await services.chats.create(workspace.id, { agent: 'support', environment: 'live', channel: 'web' });
    for (const text of messages) replies.set(text, (await services.chats.send(workspace.id, chat.chat_id, text)).message_id);
  }
  const flagged = replies.get(demoFlag.visitorText);
  if (flagged) await services.flags.create(workspace, devUserEmail, { message_id: flagged, note: demoFlag.note });
}

/** The demo agent's tool reaches the demo backend where this start of local mode runs it (its port may change). */
async function pointDemoAgentAtBackend(services: Services, userId: string, backend: DemoBackend): Promise<void> {
  const workspace = await services.workspaces.resolve(demoWorkspaceSlug, userId).catch(() => undefined);
  if (!workspace) return; // the developer deleted or left the demo workspace: leave it be
  for (const environment of ['preview', 'live']) {
    const secrets = await services.deployments.secretValues(workspace.id, environment);
    if (secrets.BACKEND_URL !== undefined && secrets.BACKEND_URL !== backend.url) {
      await services.deployments.setSecret(workspace.id, environment, 'BACKEND_URL', backend.url);
    }
  }
}

/** Writes a new developer token (0600) to `<data dir>/dev-token` unless the one there still works. */
async function ensureDevToken(services: Services, dataDir: string, userId: string): Promise<void> {
  const file = join(dataDir, devTokenFile);
  const stored = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  const principal = stored ? await services.identity.authenticate(`Bearer ${stored}`) : undefined;
  if (principal?.user.id === userId) return;
  const { token } = await services.identity.issueToken(userId, 'local dev token');
  await writeFile(file, `${token}\n`, { mode: 0o600 });
}

/**
 * Local mode. First start: the developer, the `demo` workspace they own with the demo agent deployed, a few
 * chats and one flagged reply. Every start: a working developer token in `<data dir>/dev-token` (a new one when the stored one was
 * revoked), and the demo agent pointed at this start's demo backend. Nothing else the developer changed is touched.
 */
export async function seedLocalMode(services: Services, dataDir: string, demoBackend?: DemoBackend): Promise<{ seeded: boolean }> {
  const existing = await services.store.users.findByEmail(devUserEmail);
  if (existing) {
    await ensureDevToken(services, dataDir, existing.id);
    if (demoBackend) await pointDemoAgentAtBackend(services, existing.id, demoBackend);
    return { seeded: false };
  }
  const user = await services.identity.findOrCreateUser(devUserEmail);
  await services.workspaces.create(user.id, { slug: demoWorkspaceSlug, name: 'Demo' });
  await ensureDevToken(services, dataDir, user.id);
  if (demoBackend) await seedDemoAgent(services, user.id, demoBackend);
  return { seeded: true };
}
