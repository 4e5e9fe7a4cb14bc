import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { createLogger } from '@svc/server-kit';
import { request } from '@svc/testkit';
import { expect, it } from 'vitest';
import { startGateway } from '../src/index.ts';

it('answers 503 within 2 s when core takes connections but never answers (a stopped process)', async () => {
  // A stopped core's kernel still completes TCP handshakes from its backlog; nothing ever answers.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const gateway = await startGateway({
    port: 0,
    coreUrls: [`http://127.0.0.1:${(silent.address() as AddressInfo).port}`],
    secretKey: randomBytes(32),
    log: createLogger('gateway', { LOG_LEVEL: 'silent' }),
  });
  const started = Date.now();
  const health = await request(`${gateway.url}/healthz`);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(health.status).toBe(503);
  expect(health.body.error.code).toBe('core_unavailable');
  await gateway.stop();
  for (const socket of sockets) socket.destroy();
  silent.close();
});
