import { networkInterfaces } from 'node:os';
import { deriveInternalToken, internalTokenHeader } from '@svc/server-kit';
import { request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';

/** This machine's address on a network, as a neighbour would reach it. */
const networkAddress = (family: 'IPv4' | 'IPv6') =>
  Object.values(networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === family && !address.address.startsWith('fe80'))?.address;
const ipv4 = networkAddress('IPv4');
const ipv6 = networkAddress('IPv6');

let platform: TestPlatform;
let port: string;

beforeAll(async () => {
  platform = await startPlatform({ localMode: true });
  port = new URL(platform.url).port;
});
afterAll(() => platform.stop());

const devPages = ['/dev/outbox', '/dev/outbox.json', '/dev/mailbox', '/dev/mailbox.json'];

describe('the dev pages', () => {
  it('answer requests from this machine, the pages uncached and unframeable', async () => {
    for (const base of [`http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      for (const path of devPages) expect((await request(`${base}${path}`)).status, `${base}${path}`).toBe(200);
    }
    for (const path of ['/dev/outbox', '/dev/mailbox']) {
      const page = await request(`http://127.0.0.1:${port}${path}`);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('refuse a proxy on this machine relaying a request from elsewhere', async () => {
    for (const path of devPages) {
      const res = await request(`http://127.0.0.1:${port}${path}`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });

  it.skipIf(!ipv4)(
    `refuse requests from the network (through ${ipv4 ?? 'no network interface: skipped'}), even claiming to be local`,
    async () => {
      const base = `http://${ipv4}:${port}`;
      expect((await request(`${base}/healthz`)).status).toBe(200); // the gateway is reachable there; only the dev pages refuse
      for (const path of devPages) {
        for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Record<string, string>[]) {
          const res = await request(`${base}${path}`, { headers });
          expect(res.status, path).toBe(403);
          expect(res.body.error.code).toBe('forbidden');
        }
      }
    },
  );

  it.skipIf(!ipv6)(`refuse requests from the network over IPv6 (through ${ipv6 ?? 'no IPv6 network interface: skipped'})`, async () => {
    const res = await request(`http://[${ipv6}]:${port}/dev/mailbox.json`);
    expect(res.status).toBe(403);
  });
});

describe('POST /dev/digest', () => {
  it('runs the daily digest now for today, even where today’s is done, and answers what it did', async () => {
    const owner = await createUserWithToken(platform, 'owner@digest.example');
    await request(`${platform.url}/cli/workspaces`, { token: owner, json: { slug: 'quiet' } });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
    for (let run = 0; run < 2; run++) {
      const res = await request(`http://127.0.0.1:${port}/dev/digest`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        day: today,
        workspaces: expect.arrayContaining([{ workspace: 'quiet', outcome: 'nothing_new' }]),
        flags_issues: [],
      });
    }
  });

  it('refuses a post a page of another site makes, and requests from elsewhere', async () => {
    const crossSite = await request(`http://127.0.0.1:${port}/dev/digest`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('forbidden');
    const relayed = await request(`http://127.0.0.1:${port}/dev/digest`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(relayed.status).toBe(403);
  });

  it('is not there outside local mode, in the gateway or in core', async () => {
    const served = await startPlatform();
    try {
      const res = await request(`${served.url}/dev/digest`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      const inCore = await fetch(`${served.core.url}/trpc/dev.digest`, {
        method: 'POST',
        headers: { [internalTokenHeader]: deriveInternalToken(served.secretKey), 'content-type': 'application/json' },
      });
      expect(((await inCore.json()) as { error: { data: { svc: unknown } } }).error.data.svc).toMatchObject({ code: 'not_found' });
    } finally {
      await served.stop();
    }
  });
});
