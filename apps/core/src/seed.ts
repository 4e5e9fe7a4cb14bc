import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Services } from './services/index.ts';

export const devUserEmail = 'dev@example.com';
export const demoWorkspaceSlug = 'demo';
export const devTokenFile = 'dev-token';

/**
 * First start of local mode: the developer, the `demo` workspace they own, and a developer
 * token written (0600) to `<data dir>/dev-token`. Later starts find the user and leave everything as it is.
 */
export async function seedLocalMode(services: Services, dataDir: string): Promise<{ seeded: boolean }> {
  if (await services.store.users.findByEmail(devUserEmail)) return { seeded: false };
  const user = await services.identity.findOrCreateUser(devUserEmail);
  await services.workspaces.create(user.id, { slug: demoWorkspaceSlug, name: 'Demo' });
  const { token } = await services.identity.issueToken(user.id, 'local dev token');
  await writeFile(join(dataDir, devTokenFile), `${token}\n`, { mode: 0o600 });
  return { seeded: true };
}
