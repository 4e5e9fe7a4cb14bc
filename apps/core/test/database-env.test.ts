import { expect, it } from 'vitest';
import { readEnv } from '../src/env.ts';

it('reads the PostgreSQL database with its pool and its deadlines; without SVC_DATABASE_URL, none', () => {
  const base = { SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
  expect(readEnv(base).database).toBeUndefined();
  const url = 'postgres://svc@db.internal:5432/svc';
  expect(readEnv({ ...base, SVC_DATABASE_URL: url }).database).toEqual({
    url,
    poolSize: 10,
    statementTimeoutMs: 10_000,
    connectTimeoutMs: 5_000,
  });
  expect(readEnv({ ...base, SVC_DATABASE_URL: url, SVC_DATABASE_CONNECT_TIMEOUT_MS: '750' }).database?.connectTimeoutMs).toBe(750);
  expect(() => readEnv({ ...base, SVC_DATABASE_URL: url, SVC_DATABASE_CONNECT_TIMEOUT_MS: '10' })).toThrow(
    'SVC_DATABASE_CONNECT_TIMEOUT_MS',
  );
  expect(readEnv({ ...base, SVC_DATABASE_URL: url, SVC_DATABASE_STATEMENT_TIMEOUT_MS: '2500' }).database?.statementTimeoutMs).toBe(2500);
  expect(() => readEnv({ ...base, SVC_DATABASE_URL: url, SVC_DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(
    'SVC_DATABASE_STATEMENT_TIMEOUT_MS',
  );
});
