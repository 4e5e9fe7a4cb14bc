/**
 * Production as an operator installs it: `pnpm build`, then `pnpm deploy --prod` of core, gateway and eval runner
 * into folders of their own, each started with `node dist/main.js` on PostgreSQL, with neither the repository nor
 * tsx within reach. A code is sent and checked, and an eval run finishes, through them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCore } from '@svc/test-platform';
import { createLogger } from '@svc/server-kit';
import {
  createPostgresDatabase,
  dropPostgresDatabases,
  freePort,
  graphAccepted,
  removeTempDirs,
  request,
  runProcess,
  spawnGroup,
  startFakeProvider,
  stopProcesses,
  tempDir,
  waitUntilAnswering,
} from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { salesAgent } from '../evals/setup.ts';

const repository = fileURLToPath(new URL('../../../../', import.meta.url));
const apps = ['core', 'gateway', 'eval-runner'] as const;
const deployed: Record<(typeof apps)[number], string> = { core: '', gateway: '', 'eval-runner': '' };
/** The tooling's own environment: pnpm finds its store and settings as in the developer's shell. */
const pnpm = (args: string[]) => runProcess('pnpm', args, { cwd: repository, env: { ...process.env }, timeoutMs: 110_000 });

beforeAll(async () => {
  const built = await pnpm(['build']);
  expect(built.code, built.stderr).toBe(0);
  const folder = tempDir('svc-deploy-');
  await Promise.all(
    apps.map(async (app) => {
      deployed[app] = join(folder, app);
      const deploy = await pnpm(['deploy', '--filter', `@svc/${app}`, '--prod', deployed[app]]);
      expect(deploy.code, deploy.stderr).toBe(0);
    }),
  );
});
afterAll(async () => {
  await stopProcesses();
  await dropPostgresDatabases();
  removeTempDirs();
});

/** An app from its deployed folder, with only node on PATH and its own settings. */
function startDeployed(app: (typeof apps)[number], env: Record<string, string>) {
  return spawnGroup(process.execPath, ['dist/main.js'], {
    cwd: deployed[app],
    env: { PATH: dirname(process.execPath), LOG_LEVEL: 'warn', ...env },
  });
}

it('holds production dependencies only: no TypeScript runner, no sources, and no database driver but in core', () => {
  const installed = (app: (typeof apps)[number], name: string) =>
    readdirSync(join(deployed[app], 'node_modules', '.pnpm')).filter((entry) => entry.startsWith(`${name}@`));
  for (const app of apps) {
    expect(installed(app, 'tsx')).toEqual([]);
    expect(existsSync(join(deployed[app], 'src'))).toBe(false);
  }
  expect(installed('core', 'pg')).not.toEqual([]);
  for (const app of ['gateway', 'eval-runner'] as const) expect(installed(app, 'pg')).toEqual([]);
  expect(installed('gateway', 'better-sqlite3')).toEqual([]);
});

it('sends and checks a code, and finishes an eval run, through the deployed apps on PostgreSQL', async () => {
  const databaseUrl = await createPostgresDatabase();
  const graph = await startFakeProvider(graphAccepted);
  const secretKey = randomBytes(32);
  const shared = { SVC_SECRET_KEY: secretKey.toString('base64') };
  const [corePort, gatewayPort] = [await freePort(), await freePort()];
  const coreUrl = `http://127.0.0.1:${corePort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  startDeployed('core', {
    ...shared,
    SVC_DATABASE_URL: databaseUrl,
    SVC_DATA_DIR: tempDir(),
    CORE_PORT: String(corePort),
    WHATSAPP_GRAPH_URL: graph.url,
  });
  await waitUntilAnswering(`${coreUrl}/healthz`);
  startDeployed('gateway', { ...shared, PORT: String(gatewayPort), CORE_URLS: coreUrl });
  const runner = startDeployed('eval-runner', { ...shared, CORE_URLS: coreUrl, LOG_LEVEL: 'info' });
  await waitUntilAnswering(`${gatewayUrl}/healthz`);
  await runner.waitForOutput('connected to core');

  // A developer and their token, written by a core from the sources on the database the deployed core migrated.
  const seeding = await startCore({
    dataDir: tempDir(),
    database: { url: databaseUrl },
    port: 0,
    secretKey,
    log: createLogger('core', { LOG_LEVEL: 'silent' }),
  });
  const user = await seeding.services.identity.findOrCreateUser('ada@example.com');
  const { token } = await seeding.services.identity.issueToken(user.id, 'developer token');
  await seeding.stop();

  const call = (path: string, json?: unknown, method?: string) => request(`${gatewayUrl}${path}`, { token, json, method });
  expect((await call('/cli/workspaces', { slug: 'acme' })).status).toBe(201);
  const sender = { kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'token', template: 'otp_code' };
  expect((await call('/api/developer/v1/acme/sender', sender, 'PUT')).status).toBe(200);
  const created = await call('/api/v1/acme/phone_verifications', { phone_number: '+56912345678' });
  expect(created.status).toBe(201);
  const [sent] = await graph.waitForRequests(1);
  const code = JSON.parse(sent!.body).template.components[0].parameters[0].text as string;
  const verified = await call(`/api/v1/acme/phone_verifications/${created.body.verification_id}/verify`, { code });
  expect(verified).toMatchObject({ status: 200, body: { verified: true } });

  expect(
    (await call('/api/developer/v1/acme/deployments', { environment: 'preview', files: salesAgent('Plans start at 12 USD.') })).status,
  ).toBe(201);
  const evalCase = { agent: 'sales', turns: ['what is the price?'], expected: 'Says "12 USD".' };
  expect((await call('/api/developer/v1/acme/evals/cases', evalCase)).status).toBe(201);
  const started = await call('/api/developer/v1/acme/evals/runs', { environment: 'preview' });
  expect(started.status).toBe(202);
  const run = () => call(`/api/developer/v1/acme/evals/runs/${started.body.id}`);
  await expect.poll(async () => (await run()).body.finished).toBe(true);
  const finished = (await run()).body;
  expect(finished, JSON.stringify(finished.results)).toMatchObject({ passed: 1, failed: 0, errors: 0 });
  await graph.close();
});
