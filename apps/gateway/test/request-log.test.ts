import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from '@svc/testkit';
import { createUserWithToken, type PlatformOptions, startPlatform, type TestPlatform } from './platform.ts';
import { expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.ts';
import { connectCoreChannel } from '../src/core-client.ts';

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

async function serve(level: string, options: PlatformOptions = {}) {
  const platform = await startPlatform(options);
  const { log, lines } = capture(level);
  const core = connectCoreChannel(platform.core.url, platform.internalToken);
  const app = createGatewayApp({ core: core.client, publicUrl: 'http://localhost', log });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  // Counted after the app's own listeners (the request log's among them) have seen each response finish.
  let finished = 0;
  server.on('request', (_req, res) => res.on('finish', () => finished++));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    platform,
    lines,
    finished: () => finished,
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
  await expect.poll(() => gateway.finished()).toBe(2);
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

it('never logs the token of an invitation link, whichever of its pages is asked for', async () => {
  const gateway = await serve('info');
  await request(`${gateway.url}/invitations/the-invitation-token-is-a-credential`);
  await request(`${gateway.url}/invitations/the-invitation-token-is-a-credential/accept`, { body: 'csrf_token=x' });
  await request(`${gateway.url}/login?next=${encodeURIComponent('/invitations/the-invitation-token-is-a-credential')}`);
  // The accept without a session is sent back to the invitation's page, and the redirect is followed: four requests.
  await expect.poll(() => gateway.finished()).toBe(4);
  expect(gateway.lines.map((line) => (line.req as { url: string }).url)).toEqual([
    '/invitations/[redacted]',
    '/invitations/[redacted]/accept',
    '/invitations/[redacted]',
    `/login?next=${encodeURIComponent('/invitations/[redacted]')}`,
  ]);
  expect(JSON.stringify(gateway.lines)).not.toContain('the-invitation-token-is-a-credential');
  await gateway.stop();
});

it('writes no request lines above the info level', async () => {
  const gateway = await serve('warn');
  await request(`${gateway.url}/cli/whoami`, { token: 'svc_whatever' });
  await expect.poll(() => gateway.finished()).toBe(1);
  expect(gateway.lines).toEqual([]);
  await gateway.stop();
});

/** The code the dev sender kept for the last verification of the workspace. */
async function devCode(platform: TestPlatform): Promise<string> {
  await expect.poll(async () => (await platform.core.services.store.devMessages.list(1)).length).toBe(1);
  const [message] = await platform.core.services.store.devMessages.list(1);
  return /\b\d{6}\b/.exec(message!.body)![0];
}

it('logs no code nor token of a verify, a device page, a sign-in link or a webhook verification', async () => {
  const gateway = await serve('info', { localMode: true });
  const token = await createUserWithToken(gateway.platform, 'ada@example.com');
  await request(`${gateway.url}/cli/workspaces`, { token, json: { slug: 'acme' } });
  const created = await request(`${gateway.url}/api/v1/acme/phone_verifications`, { token, json: { phone_number: '+56912345678' } });
  const code = await devCode(gateway.platform);
  const verified = await request(`${gateway.url}/api/v1/acme/phone_verifications/${created.body.verification_id}/verify?code=${code}`, {
    token,
    json: { code },
  });
  expect(verified.status).toBe(200);
  const device = await request(`${gateway.url}/cli/device_authorizations`, { json: { client_name: 'laptop' } });
  const userCode: string = device.body.user_code;
  await request(`${gateway.url}/device?user_code=${userCode}`);
  await request(`${gateway.url}/device?%75ser_code=${userCode}`); // an escaped name is the same parameter
  await request(`${gateway.url}/AUTH/LINK/link-token-in-capitals`);
  await request(`${gateway.url}/auth/link/the-link-token-is-a-credential?next=/tokens`);
  await request(`${gateway.url}/webhooks/whatsapp/acme?hub.mode=subscribe&hub.verify_token=meta-verify-token&hub.challenge=1158201444`);
  await request(`${gateway.url}/cli/device_authorizations/token?device_code=${device.body.device_code}`, {
    json: { device_code: device.body.device_code },
  });
  await expect.poll(() => gateway.lines.length).toBe(12); // the two device pages redirect to /login

  const logged = JSON.stringify(gateway.lines);
  expect(logged).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`)); // digits of a timestamp aside
  for (const secret of [
    userCode,
    userCode.replace('-', ''),
    'link-token-in-capitals',
    'the-link-token-is-a-credential',
    'meta-verify-token',
    device.body.device_code,
  ]) {
    expect(logged).not.toContain(secret);
  }
  const urls = gateway.lines.map((line) => (line.req as { url: string }).url);
  expect(urls).toContain('/device?user_code=[redacted]');
  expect(urls).toContain(`/login?next=${encodeURIComponent('/device?user_code=[redacted]')}`);
  expect(urls).toContain('/auth/link/[redacted]?next=/tokens');
  expect(urls).toContain('/webhooks/whatsapp/acme?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1158201444');
  await gateway.stop();
});
