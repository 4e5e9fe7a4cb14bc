import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryPostgres, request } from '@svc/testkit';
import Database from 'better-sqlite3';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../phone-verification/setup.ts';

let platform: TestPlatform;
afterEach(() => platform.stop());

const start = () => request(`${platform.url}/cli/device_authorizations`, { method: 'POST', headers: { 'user-agent': 'svc-cli/1.0' } });
const poll = (device_code: string) => request(`${platform.url}/cli/device_authorizations/token`, { json: { device_code } });

/** Approves as a signed-in user would, through core's service (the pages have their own tests). */
async function approve(userCode: string, decision: 'approved' | 'denied' = 'approved') {
  const { identity, deviceAuth } = platform.core.services;
  const user = await identity.findOrCreateUser('ada@example.com');
  await deviceAuth.decide(userCode, user.id, decision, '127.0.0.1');
}

/** Core's rows of device authorizations, read past its store, whichever store it runs on. */
async function storedAuthorizations(): Promise<Record<string, unknown>[]> {
  const query = 'select * from device_authorizations';
  if (platform.databaseUrl) return queryPostgres(platform.databaseUrl, query);
  const db = new Database(join(platform.dataDir, 'svc.db'), { readonly: true });
  try {
    return db.prepare(query).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('starting', () => {
  it('answers the RFC 8628 fields, not cacheable, with a user code of 8 consonants', async () => {
    platform = await startPlatform();
    const res = await start();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${platform.url}/device`,
      verification_uri_complete: `${platform.url}/device?user_code=${res.body.user_code}`,
      interval: 5,
      expires_in: 900,
    });
    expect(res.body.email_sent).toBeUndefined();
  });

  it('keeps only a hash of the device code', async () => {
    platform = await startPlatform();
    const { device_code } = (await start()).body;
    await platform.halt();
    const disk = ['svc.db', 'svc.db-wal'].map((f) => readFileSync(join(platform.dataDir, f), { flag: 'a+' }).toString('latin1')).join('');
    expect(disk).not.toContain(device_code);
  });
});

describe('polling', () => {
  it('answers authorization_pending, then the token exactly once', async () => {
    const clock = fakeClock();
    platform = await startPlatform({ clock: clock.now });
    const { device_code, user_code } = (await start()).body;
    const pending = await poll(device_code);
    expect(pending).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    expect(pending.headers.get('cache-control')).toBe('no-store');
    await approve(user_code);
    clock.advance(5);
    const granted = await poll(device_code);
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ access_token: expect.stringMatching(/^svc_/), token_type: 'Bearer' });
    const me = await request(`${platform.url}/cli/whoami`, { token: granted.body.access_token });
    expect(me.body.user.email).toBe('ada@example.com');
    expect(me.body.token.name).toBe('svc CLI');
  });

  it('slows a client down by 5 s each time it polls early, and never traps one that obeys', async () => {
    const clock = fakeClock();
    platform = await startPlatform({ clock: clock.now });
    const { device_code } = (await start()).body;
    expect((await poll(device_code)).body.error).toBe('authorization_pending');
    clock.advance(2);
    expect((await poll(device_code)).body).toMatchObject({ error: 'slow_down', interval: 10 });
    clock.advance(9);
    expect((await poll(device_code)).body).toMatchObject({ error: 'slow_down', interval: 15 });
    for (let i = 0; i < 4; i++) {
      clock.advance(15);
      expect((await poll(device_code)).body.error).toBe('authorization_pending');
    }
  });

  it('answers access_denied after Deny', async () => {
    platform = await startPlatform();
    const { device_code, user_code } = (await start()).body;
    await approve(user_code, 'denied');
    expect((await poll(device_code)).body.error).toBe('access_denied');
  });

  it('answers expired_token after 900 s', async () => {
    const clock = fakeClock();
    platform = await startPlatform({ clock: clock.now });
    const { device_code, user_code } = (await start()).body;
    clock.advance(900);
    expect((await poll(device_code)).body.error).toBe('expired_token');
    await expect(approve(user_code)).rejects.toThrow(/expired/);
  });

  it('revokes the token when a spent device code is replayed', async () => {
    const clock = fakeClock();
    platform = await startPlatform({ clock: clock.now });
    const { device_code, user_code } = (await start()).body;
    await approve(user_code);
    const { access_token } = (await poll(device_code)).body;
    expect((await request(`${platform.url}/cli/whoami`, { token: access_token })).status).toBe(200);
    clock.advance(5);
    const replay = await poll(device_code);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await request(`${platform.url}/cli/whoami`, { token: access_token })).status).toBe(401);
  });

  it('answers invalid_grant for an unknown code, and RFC errors for a malformed request', async () => {
    platform = await startPlatform();
    expect((await poll('not-a-device-code')).body.error).toBe('invalid_grant');
    const missing = await request(`${platform.url}/cli/device_authorizations/token`, { json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('accepts the RFC form body, and rejects another grant type', async () => {
    platform = await startPlatform();
    const { device_code } = (await start()).body;
    const form = (grantType: string) =>
      request(`${platform.url}/cli/device_authorizations/token`, {
        body: new URLSearchParams({ grant_type: grantType, device_code, client_id: 'svc-cli' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await form('urn:ietf:params:oauth:grant-type:device_code')).body.error).toBe('authorization_pending');
    expect((await form('authorization_code')).body.error).toBe('unsupported_grant_type');
  });
});

describe('user codes', () => {
  it('match case-insensitively, with or without the dash', async () => {
    platform = await startPlatform();
    const { user_code } = (await start()).body;
    const { deviceAuth } = platform.core.services;
    for (const typed of [user_code, user_code.toLowerCase(), user_code.replace('-', ''), ` ${user_code.replace('-', ' ')} `]) {
      expect((await deviceAuth.view(typed, '10.0.0.1')).userCode).toBe(user_code);
    }
  });

  it('are stored only as an HMAC, and approve however they are typed', async () => {
    platform = await startPlatform();
    const typings = [
      (code: string) => code.toLowerCase(),
      (code: string) => code.replace('-', ''),
      (code: string) => code.replace('-', '').toLowerCase(),
    ];
    const started = await Promise.all(typings.map(async () => (await start()).body as { device_code: string; user_code: string }));
    const rows = await storedAuthorizations();
    expect(rows).toHaveLength(typings.length);
    for (const row of rows) expect(row).toMatchObject({ user_code: null, user_code_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const stored = JSON.stringify(rows).toUpperCase();
    for (const { user_code } of started) {
      expect(stored).not.toContain(user_code);
      expect(stored).not.toContain(user_code.replace('-', ''));
    }
    for (const [index, { device_code, user_code }] of started.entries()) {
      await approve(typings[index]!(user_code));
      expect((await poll(device_code)).body).toEqual({ access_token: expect.stringMatching(/^svc_/), token_type: 'Bearer' });
    }
  });
});
