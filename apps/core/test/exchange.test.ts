import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSilentPeer } from '@svc/testkit';
import { expect, it } from 'vitest';
import { exchange } from '../src/verification/providers/exchange.ts';

it('answers the status and the whole body, and rejects when nobody listens', async () => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () =>
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: body, path: req.url, method: req.method })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const answer = await exchange(
    { origin, path: '/x?y=1', method: 'POST', headers: { 'content-type': 'application/json' }, body: 'ñandú' },
    5000,
  );
  expect(answer.status).toBe(422);
  expect(JSON.parse(answer.text)).toEqual({ echoed: 'ñandú', path: '/x?y=1', method: 'POST' });
  await new Promise((resolve) => server.close(resolve));
  await expect(exchange({ origin, path: '/', method: 'GET' }, 5000)).rejects.toThrow();
});

it('fails with "no answer within" once a server that took the request has said nothing for the deadline', async () => {
  const silent = await startSilentPeer();
  const sent = exchange({ origin: silent.url, path: '/', method: 'POST', body: '{}' }, 300);
  await expect(sent).rejects.toThrow('no answer within 300 ms');
  expect(silent.connections).toBeGreaterThanOrEqual(1);
  await silent.close();
});
