import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { deriveInternalToken, internalTokenHeader } from '@svc/server-kit';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { runningCore } from './running-core.ts';

const core = runningCore();
const wrongToken = deriveInternalToken(randomBytes(32));

/** What core answers an upgrade of its channel: 101 when it takes it, else the refusal's status and body. */
function upgrade(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const socket = new WebSocket(`${core.url.replace('http:', 'ws:')}/trpc`, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.once('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

it('answers tRPC over HTTP only to a caller with the internal token: 401 without it or with another', async () => {
  const ping = `${core.url}/trpc/health.ping`;
  const refused = [await fetch(ping), await fetch(ping, { headers: { [internalTokenHeader]: wrongToken } })];
  for (const res of refused) {
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
  }
  const answered = await fetch(ping, { headers: { [internalTokenHeader]: core.internalToken } });
  expect(answered.status).toBe(200);
  expect(await answered.json()).toEqual({ result: { data: { ok: true } } });
});

it('refuses an upgrade to the channel without the internal token or with another, and takes one with it', async () => {
  for (const headers of [{}, { [internalTokenHeader]: wrongToken }, { [internalTokenHeader]: '' }] as Record<string, string>[]) {
    const refused = await upgrade(headers);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'unauthorized' } });
  }
  expect((await upgrade({ [internalTokenHeader]: core.internalToken })).status).toBe(101);
});

it('runs nothing for a plain HTTP call such as an agent tool makes: a device authorization with a made-up IP', async () => {
  const start = (headers: Record<string, string>) =>
    fetch(`${core.url}/trpc/deviceAuth.start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ client_name: 'tool', client: { ip: '203.0.113.7', user_agent: 'tool' } }),
    });
  const fromTool = await start({});
  expect(fromTool.status).toBe(401);
  expect(await fromTool.text()).not.toContain('device_code');
  // The same call from the platform is answered, so the refusal above is the token's doing alone.
  const fromGateway = await start({ [internalTokenHeader]: core.internalToken });
  expect(fromGateway.status).toBe(200);
  expect(await fromGateway.json()).toMatchObject({ result: { data: { device_code: expect.any(String) } } });
});

it('still answers /healthz to anyone, which tells nothing', async () => {
  expect((await fetch(`${core.url}/healthz`)).status).toBe(200);
});
