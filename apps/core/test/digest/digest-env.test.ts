import { randomBytes } from 'node:crypto';
import { ConfigError } from '@svc/server-kit';
import { expect, it } from 'vitest';
import { readEnv } from '../../src/env.ts';

const base = { SVC_SECRET_KEY: randomBytes(32).toString('base64') };

it('runs the daily digest at 08:00 America/Santiago unless SVC_DIGEST_CRON and SVC_DIGEST_TZ say otherwise', () => {
  expect(readEnv(base).config.digest).toEqual({ cron: '0 8 * * *', timeZone: 'America/Santiago' });
  expect(readEnv({ ...base, SVC_DIGEST_CRON: '30 6 * * 1-5', SVC_DIGEST_TZ: 'Europe/Berlin' }).config.digest).toEqual({
    cron: '30 6 * * 1-5',
    timeZone: 'Europe/Berlin',
  });
});

it('refuses to start on a schedule it cannot read, naming the variable', () => {
  for (const [name, value, message] of [
    ['SVC_DIGEST_CRON', '0 25 * * *', 'SVC_DIGEST_CRON: expected a cron expression'],
    ['SVC_DIGEST_CRON', 'every morning', 'SVC_DIGEST_CRON: expected a cron expression'],
    ['SVC_DIGEST_TZ', 'Mars/Olympus_Mons', 'SVC_DIGEST_TZ: expected an IANA time zone'],
  ] as const) {
    expect(() => readEnv({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => readEnv({ ...base, [name]: value })).toThrow(message);
  }
});
