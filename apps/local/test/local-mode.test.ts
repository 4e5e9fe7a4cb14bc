import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { removeTempDirs, request, runProcess, tempDir } from '@svc/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts, startLocal } from './start-local.ts';

/** This machine's IPv4 address on a network, as a neighbour would reach it. */
const networkAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === 'IPv4')?.address;

afterAll(removeTempDirs);

describe('pnpm start (local mode)', () => {
  it('starts core, gateway and eval runner, seeds, prints the token and URLs, and stops on Ctrl-C', async () => {
    const dataDir = tempDir('svc data-'); // a space in it, as in many home folders
    const ports = await freePorts();
    const [port, corePort] = [Number(ports.PORT), Number(ports.CORE_PORT)];
    const local = startLocal({
      ...ports,
      SVC_DATA_DIR: dataDir,
    });
    const banner = await local.ready;

    const token = readFileSync(join(dataDir, 'dev-token'), 'utf8').trim();
    expect(banner).toContain(`http://localhost:${port}`);
    expect(banner).toContain(token);
    const list = await request(`http://localhost:${port}/cli/workspaces`, { token });
    expect(list.body.workspaces).toMatchObject([{ slug: 'demo', role: 'owner' }]);

    // The commands it suggests work as printed, pasted into a new shell elsewhere, on this start's port and data.
    const tries = banner.slice(banner.indexOf('Try')).split('\n\n')[0]!.split('\n').slice(1);
    expect(tries).toHaveLength(2);
    expect(tries[1]).toContain(`SVC_BASE_URL=http://localhost:${port} `);
    for (const command of tries) {
      const ran = await runProcess('bash', ['-c', command], { cwd: tempDir(), env: { NO_COLOR: '1' }, timeoutMs: 60_000 });
      expect([command, ran.code, ran.stderr]).toEqual([command, 0, expect.any(String)]);
      expect(ran.stdout).toMatch(/"slug":"demo"|demo\s+Demo\s+owner/);
    }

    // The demo agent is deployed to live, the inbox has chats, and the agent's tool reaches the demo backend.
    const api = (path: string, json?: unknown) => request(`http://localhost:${port}${path}`, { token, json });
    const envs = (await api('/api/developer/v1/demo/environments')).body.environments;
    expect(envs.map((e: { name: string }) => e.name)).toEqual(['live', 'preview']);
    expect((await api('/api/developer/v1/demo/chats')).body.conversations).toBe(3);
    const chat = (await api('/api/v1/demo/chats', { agent: 'support' })).body;
    const order = await api(`/api/v1/demo/chats/${chat.chat_id}/messages`, { text: 'Where is order A-1001?' });
    expect(order.body.reply).toBe('Order A-1001 is shipped; expected delivery in 2 days.');
    const refund = await api(`/api/v1/demo/chats/${chat.chat_id}/messages`, { text: 'Can I return them?' });
    expect(refund.body.reply).toMatch(/^Returns are accepted within 30 days/);
    expect((await request(`http://127.0.0.1:${corePort}/healthz`)).status).toBe(200);
    // What the demo agent's tool could call: core's own port, whose dev outbox holds every code. Core refuses it.
    const outbox = await request(`http://127.0.0.1:${corePort}/trpc/dev.outbox`);
    expect(outbox.status).toBe(401);
    expect(JSON.stringify(outbox.body)).not.toContain('messages');

    local.child.kill('SIGINT');
    expect(await local.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${corePort}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://localhost:${port}/healthz`)).rejects.toThrow();
    expect(local.output()).not.toMatch(/exited unexpectedly/);
  });

  it.skipIf(!networkAddress)(
    `listens on loopback only: a neighbour (through ${networkAddress ?? 'no network interface: skipped'}) finds nothing`,
    async () => {
      const ports = await freePorts();
      const port = Number(ports.PORT);
      const local = startLocal({
        ...ports,
        SVC_DATA_DIR: tempDir(),
      });
      await local.ready;
      expect((await request(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const refused = await fetch(`http://${networkAddress}:${port}/healthz`).catch(
        (error: TypeError) => error.cause as NodeJS.ErrnoException,
      );
      expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
      local.child.kill('SIGINT');
      expect(await local.exited).toBe(0);
    },
    60_000,
  );

  it.skipIf(!networkAddress)(
    `with HOST=0.0.0.0 answers the network (${networkAddress ?? 'no network interface: skipped'}), but the dev pages only this machine`,
    async () => {
      const ports = await freePorts();
      const port = Number(ports.PORT);
      const local = startLocal({
        HOST: '0.0.0.0',
        ...ports,
        SVC_DATA_DIR: tempDir(),
      });
      expect(await local.ready).toContain('Listening on   0.0.0.0 (HOST)');
      const fromNetwork = `http://${networkAddress}:${port}`;
      expect((await request(`${fromNetwork}/healthz`)).status).toBe(200);
      for (const path of ['/dev/outbox', '/dev/mailbox', '/dev/outbox.json', '/dev/mailbox.json']) {
        const refused = await request(`${fromNetwork}${path}`);
        expect(refused.status, path).toBe(403);
        expect(refused.body.error.code).toBe('forbidden');
        expect((await request(`http://127.0.0.1:${port}${path}`)).status, path).toBe(200);
      }
      local.child.kill('SIGINT');
      expect(await local.exited).toBe(0);
    },
    60_000,
  );

  it('refuses a bad configuration with a clear message', async () => {
    const local = startLocal({ PORT: 'eighty', SVC_PUBLIC_URL: 'not a url', SVC_DATA_DIR: tempDir() });
    expect(await local.exited).toBe(78);
    const stderr = local.output('stderr');
    expect(stderr).toContain('invalid configuration');
    expect(stderr).toContain('PORT: expected a port number');
    expect(stderr).toContain('SVC_PUBLIC_URL: expected an http(s) URL');
  });

  it('stops everything, exits 78 and names the variable when a port is taken', async () => {
    const dataDir = tempDir();
    const ports = await freePorts();
    const [port, corePort] = [Number(ports.PORT), Number(ports.CORE_PORT)];
    const blocker = (await import('node:net')).createServer().listen(port);
    await once(blocker, 'listening');
    const local = startLocal({
      ...ports,
      SVC_DATA_DIR: dataDir,
    });
    expect(await local.exited).toBe(78);
    expect(local.output('stderr')).toContain(`PORT: port ${port} is already in use; set PORT to a free port`);
    expect(local.output('stdout')).not.toContain('svc is running');
    await expect(fetch(`http://127.0.0.1:${corePort}/healthz`)).rejects.toThrow();
    blocker.close();
  });

  it('exits 78 without the ready banner when a process refuses its configuration', async () => {
    const ports = await freePorts();
    const loud = startLocal({ ...ports, SVC_DATA_DIR: tempDir(), LOG_LEVEL: 'loud' });
    expect(await loud.exited).toBe(78);
    expect(loud.output('stderr')).toContain('LOG_LEVEL: expected trace, debug, info, warn, error, fatal or silent (got "loud")');
    expect(loud.output('stderr')).not.toContain('    at '); // a message, not a stack trace
    expect(loud.output('stdout')).not.toContain('svc is running');
    const xml = startLocal({ ...ports, SVC_DATA_DIR: tempDir(), LOG_FORMAT: 'xml' });
    expect(await xml.exited).toBe(78);
    expect(xml.output('stderr')).toContain('LOG_FORMAT: expected json or pretty (got "xml")');
  });
});
