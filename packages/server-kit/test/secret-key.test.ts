import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ConfigError, deriveInternalToken, internalTokenCheck, localSecretKey, readSecretKey } from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-key-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("keeps local mode's key in the data dir (0600), alone, and gives every process the same one", () => {
  const first = localSecretKey(dataDir);
  expect(Buffer.from(first, 'base64').length).toBe(32);
  expect(localSecretKey(dataDir)).toBe(first);
  expect(readSecretKey(undefined, { dataDir })).toEqual(Buffer.from(first, 'base64'));
  expect(statSync(join(dataDir, 'secret-key')).mode & 0o777).toBe(0o600);
  expect(readdirSync(dataDir)).toEqual(['secret-key']);
});

it('refuses a missing key outside local mode and a short one, naming the variable and not quoting its value', () => {
  expect(() => readSecretKey(undefined)).toThrow(ConfigError);
  expect(() => readSecretKey(undefined)).toThrow('SVC_SECRET_KEY: required outside local mode');
  const short = Buffer.from('sixteen bytes!!!').toString('base64');
  expect(() => readSecretKey(short)).toThrow('SVC_SECRET_KEY: expected at least 32 bytes');
  expect(() => readSecretKey(short)).not.toThrow(short);
});

it('derives one internal token per key, which the check takes and no other string passes', () => {
  const key = Buffer.alloc(32, 1);
  const token = deriveInternalToken(key);
  expect(deriveInternalToken(Buffer.alloc(32, 1))).toBe(token);
  expect(deriveInternalToken(Buffer.alloc(32, 2))).not.toBe(token);
  expect(token).not.toContain(key.toString('base64url'));
  const isInternal = internalTokenCheck(key);
  expect(isInternal(token)).toBe(true);
  for (const other of [undefined, '', token.slice(1), `${token}x`, deriveInternalToken(Buffer.alloc(32, 2)), [token]])
    expect(isInternal(other)).toBe(false);
});
