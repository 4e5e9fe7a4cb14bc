import { expect, it } from 'vitest';
import { readEnv } from '../src/env.ts';

const base = { SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };

it('reads SVC_MODEL_TIMEOUT_MS, 60 s unless told', () => {
  expect(readEnv(base).config.models.timeoutMs).toBe(60_000);
  expect(readEnv({ ...base, SVC_MODEL_TIMEOUT_MS: '120000' }).config.models.timeoutMs).toBe(120_000);
  expect(() => readEnv({ ...base, SVC_MODEL_TIMEOUT_MS: '50' })).toThrow('SVC_MODEL_TIMEOUT_MS');
  expect(() => readEnv({ ...base, SVC_MODEL_TIMEOUT_MS: 'a minute' })).toThrow('SVC_MODEL_TIMEOUT_MS');
});

it('reads SVC_SENDER_TIMEOUT_MS, 10 s unless told', () => {
  expect(readEnv(base).config.providers.timeoutMs).toBe(10_000);
  expect(readEnv({ ...base, SVC_SENDER_TIMEOUT_MS: '2500' }).config.providers.timeoutMs).toBe(2500);
  expect(() => readEnv({ ...base, SVC_SENDER_TIMEOUT_MS: '5' })).toThrow('SVC_SENDER_TIMEOUT_MS');
});
