import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/server-kit';
import { createServices } from '../src/services.ts';
import { createSqliteStore } from '../src/sqlite-store.ts';
import { tempDir } from './temp-dir.ts';

function setup() {
  const file = join(tempDir(), 'svc.db');
  let now = new Date('2026-03-01T12:00:00Z');
  const services = createServices({
    store: createSqliteStore(file),
    secretKey: randomBytes(32),
    log: createLogger('core', { LOG_LEVEL: 'silent' }),
    clock: () => now,
  });
  return { file, services, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

describe('developer tokens', () => {
  it('are svc_-prefixed, stored only as a hash, and authenticate their user', async () => {
    const { file, services } = setup();
    const user = await services.identity.findOrCreateUser(' Ada@Example.com ');
    expect(user.email).toBe('ada@example.com');
    const { token } = await services.identity.issueToken(user.id, 'laptop');
    expect(token).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    await services.store.close();
    expect(readFileSync(file).includes(token)).toBe(false);
    expect(readFileSync(`${file}-wal`, { flag: 'a+' }).includes(token)).toBe(false);
  });

  it('reject anything but an active token, and record when a token was last used', async () => {
    const { services, advance } = setup();
    const user = await services.identity.findOrCreateUser('ada@example.com');
    const { token, record } = await services.identity.issueToken(user.id, 'laptop');
    for (const header of [undefined, '', token, `Basic ${token}`, `Bearer ${token}x`, 'Bearer svc_nope']) {
      expect(await services.identity.authenticate(header)).toBeUndefined();
    }
    const principal = await services.identity.authenticate(`Bearer ${token}`);
    expect(principal?.user.email).toBe('ada@example.com');
    expect(principal?.token.lastUsedAt).toBe('2026-03-01T12:00:00.000Z');
    advance(5 * 60_000);
    await services.identity.authenticate(`bearer ${token}`);
    expect((await services.identity.listTokens(user.id, { limit: 50 })).tokens[0]?.lastUsedAt).toBe('2026-03-01T12:05:00.000Z');
    await services.identity.revokeToken(user.id, record.id);
    expect(await services.identity.authenticate(`Bearer ${token}`)).toBeUndefined();
  });

  it('stop authenticating the moment they are revoked, even a token just used or being looked up', async () => {
    const { services } = setup();
    const user = await services.identity.findOrCreateUser('ada@example.com');
    const used = await services.identity.issueToken(user.id, 'laptop');
    expect(await services.identity.authenticate(`Bearer ${used.token}`)).toBeDefined();
    await services.identity.revokeToken(user.id, used.record.id);
    expect(await services.identity.authenticate(`Bearer ${used.token}`)).toBeUndefined();

    const raced = await services.identity.issueToken(user.id, 'desktop');
    const [during] = await Promise.all([
      services.identity.authenticate(`Bearer ${raced.token}`),
      services.identity.revokeToken(user.id, raced.record.id),
    ]);
    expect(during).toBeDefined(); // it was looked up before the revocation landed
    expect(await services.identity.authenticate(`Bearer ${raced.token}`)).toBeUndefined();
  });
});
