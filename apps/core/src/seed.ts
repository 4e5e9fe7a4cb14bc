import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBundleFiles } from '@svc/agent-runtime/files';
import type { Services } from './services/index.ts';

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
  for (const messages of demoConversations) {
    const chat = await services.chats.create(workspace.id, { agent: 'support', environment: 'live', channel: 'web' });
    for (const text of messages) await services.chats.send(workspace.id, chat.chat_id, text);
  }
}

/**
 * First start of local mode: the developer, the `demo` workspace they own with the demo agent deployed and a few
 * chats, and a developer token written (0600) to `<data dir>/dev-token`. Later starts leave everything as it is.
 */
export async function seedLocalMode(services: Services, dataDir: string, demoBackend?: DemoBackend): Promise<{ seeded: boolean }> {
  if (await services.store.users.findByEmail(devUserEmail)) return { seeded: false };
  const user = await services.identity.findOrCreateUser(devUserEmail);
  await services.workspaces.create(user.id, { slug: demoWorkspaceSlug, name: 'Demo' });
  const { token } = await services.identity.issueToken(user.id, 'local dev token');
  await writeFile(join(dataDir, devTokenFile), `${token}\n`, { mode: 0o600 });
  if (demoBackend) await seedDemoAgent(services, user.id, demoBackend);
  return { seeded: true };
}
