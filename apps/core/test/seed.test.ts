import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@svc/server-kit';
import { expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { defaultConfig, startCore } from '../src/bootstrap.ts';
import { tempDir } from './temp-dir.ts';

const log = createLogger('core', { LOG_LEVEL: 'silent' });
const options = { port: 0, secretKey: randomBytes(32), config: { ...defaultConfig, localMode: true }, log };

it('seeds local mode once: dev@example.com owns demo, with a 0600 dev token that works', async () => {
  const dataDir = tempDir();
  const first = await startCore({ ...options, dataDir });
  const tokenFile = join(dataDir, 'dev-token');
  const token = readFileSync(tokenFile, 'utf8').trim();
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  const principal = await first.services.identity.authenticate(`Bearer ${token}`);
  expect(principal?.user.email).toBe('dev@example.com');
  expect(await first.services.workspaces.list(principal!.user.id)).toMatchObject([{ slug: 'demo', role: 'owner' }]);
  await first.stop();

  const second = await startCore({ ...options, dataDir });
  expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
  expect(await second.services.identity.authenticate(`Bearer ${token}`)).toBeDefined();
  await second.stop();
});

it('writes a working dev token again when the stored one was revoked', async () => {
  const dataDir = tempDir();
  const tokenFile = join(dataDir, 'dev-token');
  const first = await startCore({ ...options, dataDir });
  const revoked = readFileSync(tokenFile, 'utf8').trim();
  const principal = await first.services.identity.authenticate(`Bearer ${revoked}`);
  await first.services.identity.revokeToken(principal!.user.id, principal!.token.id);
  await first.stop();

  const second = await startCore({ ...options, dataDir });
  const token = readFileSync(tokenFile, 'utf8').trim();
  expect(token).not.toBe(revoked);
  expect((await second.services.identity.authenticate(`Bearer ${token}`))?.user.email).toBe('dev@example.com');
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  await second.stop();
});

it("points the demo agent at the demo backend's new address when its port changes", async () => {
  const dataDir = tempDir();
  const backend = (port: number) => ({ url: `http://127.0.0.1:${port}`, token: 'demo-token' });
  const config = (port: number) => ({ ...defaultConfig, localMode: true, demoBackend: backend(port) });
  const first = await startCore({ ...options, dataDir, config: config(8090) });
  await first.stop();
  const second = await startCore({ ...options, dataDir, config: config(9191) });
  const { identity, workspaces, deployments } = second.services;
  const workspace = await workspaces.resolve('demo', (await identity.findOrCreateUser('dev@example.com')).id);
  for (const environment of ['preview', 'live']) {
    expect((await deployments.secretValues(workspace.id, environment)).BACKEND_URL).toBe('http://127.0.0.1:9191');
  }
  await second.stop();
});

it('seeds one flagged reply with a note on the demo workspace, once', async () => {
  const dataDir = tempDir();
  const config = { ...defaultConfig, localMode: true, demoBackend: { url: 'http://127.0.0.1:9', token: 'demo-token' } };
  const first = await startCore({ ...options, dataDir, config });
  const { identity, workspaces, flags } = first.services;
  const workspace = await workspaces.resolve('demo', (await identity.findOrCreateUser('dev@example.com')).id);
  const { flags: open } = await flags.list(workspace.id, { status: 'open', limit: 100 });
  expect(open).toMatchObject([
    {
      agent: 'support',
      environment: 'live',
      channel: 'web',
      created_by: 'dev@example.com',
      note: expect.stringContaining('5 business days'),
      conversation: [
        { role: 'visitor', text: 'Can I return shoes I bought last week?' },
        { role: 'agent' },
        { role: 'visitor', text: 'How long does the refund take?' },
      ],
    },
  ]);
  expect(open[0]!.eval_case_id).toMatch(/^case_/);
  await first.stop();
  const second = await startCore({ ...options, dataDir, config });
  expect((await second.services.flags.list(workspace.id, { status: 'all', limit: 100 })).flags).toHaveLength(1);
  await second.stop();
});
