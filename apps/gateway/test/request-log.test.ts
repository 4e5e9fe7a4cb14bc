import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from '@svc/testkit';
import { startPlatform } from '../testing/platform.ts';
import { expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.ts';
import { connectCore } from '../src/core-client.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level }, stream), lines };
}

async function serve(level: string) {
  const platform = await startPlatform();
  const { log, lines } = capture(level);
  const core = connectCore(platform.core.url, platform.internalToken);
  const app = createGatewayApp({ core: core.client, publicUrl: 'http://localhost', log });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    async stop() {
      server.close();
      core.close();
      await platform.stop();
    },
  };
}

it('logs one line per request with method, URL, status and time, never a token or a sign-in link', async () => {
  const gateway = await serve('info');
  await request(`${gateway.url}/cli/whoami`, { token: 'svc_not_a_real_token_but_secret' });
  await request(`${gateway.url}/auth/link/the-link-token-is-a-credential`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const logged = JSON.stringify(gateway.lines);
  expect(gateway.lines).toEqual([
    expect.objectContaining({
      msg: expect.stringMatching(/^GET \/cli\/whoami 401 \d+ ms$/),
      req: { method: 'GET', url: '/cli/whoami' },
      res: { status: 401 },
      ms: expect.any(Number),
    }),
    expect.objectContaining({ req: { method: 'GET', url: '/auth/link/[redacted]' }, res: { status: expect.any(Number) } }),
  ]);
  expect(logged).not.toContain('svc_not_a_real_token_but_secret');
  expect(logged).not.toContain('the-link-token-is-a-credential');
  await gateway.stop();
});

it('writes no request lines above the info level', async () => {
  const gateway = await serve('warn');
  await request(`${gateway.url}/cli/whoami`, { token: 'svc_whatever' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(gateway.lines).toEqual([]);
  await gateway.stop();
});
