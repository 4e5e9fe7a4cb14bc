import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@svc/server-kit';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { readEnv } from '../src/env.ts';

afterAll(removeTempDirs);

it("needs core's SVC_SECRET_KEY outside local mode, and never quotes a bad one", () => {
  expect(() => readEnv({})).toThrow(ConfigError);
  expect(() => readEnv({})).toThrow('SVC_SECRET_KEY: required outside local mode');
  const short = Buffer.alloc(16, 7).toString('base64');
  expect(() => readEnv({ SVC_SECRET_KEY: short })).toThrow('SVC_SECRET_KEY: expected at least 32 bytes');
  expect(() => readEnv({ SVC_SECRET_KEY: short })).not.toThrow(short);
  const key = Buffer.alloc(32, 9);
  expect(readEnv({ SVC_SECRET_KEY: key.toString('base64') }).secretKey).toEqual(key);
});

it("uses local mode's key in the data dir when none is given, the same one core uses", () => {
  const dataDir = tempDir();
  const first = readEnv({ SVC_LOCAL_MODE: '1', SVC_DATA_DIR: dataDir }).secretKey;
  expect(first.length).toBe(32);
  expect(readEnv({ SVC_LOCAL_MODE: '1', SVC_DATA_DIR: dataDir }).secretKey).toEqual(first);
  expect(statSync(join(dataDir, 'secret-key')).mode & 0o777).toBe(0o600);
});

it('reaches the cores of CORE_URLS, comma-separated; CORE_URL, or CORE_PORT on loopback, is a list of one', () => {
  const key = { SVC_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') };
  expect(readEnv({ ...key, CORE_URLS: 'http://core-1:8081, http://core-2:8081/' }).coreUrls).toEqual([
    'http://core-1:8081',
    'http://core-2:8081',
  ]);
  expect(readEnv({ ...key, CORE_URL: 'http://core:8081' }).coreUrls).toEqual(['http://core:8081']);
  expect(readEnv({ ...key, CORE_PORT: '9001' }).coreUrls).toEqual(['http://127.0.0.1:9001']);
  expect(() => readEnv({ ...key, CORE_URLS: 'http://core-1:8081,core-2' })).toThrow('CORE_URLS');
  expect(() => readEnv({ ...key, CORE_URLS: ' , ' })).toThrow('CORE_URLS: expected one or more core URLs, comma-separated');
});

it('gives a silent core 3 s before its calls fail, or SVC_CORE_SILENCE_MS', () => {
  const key = { SVC_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') };
  expect(readEnv(key).coreSilenceMs).toBe(3000);
  expect(readEnv({ ...key, SVC_CORE_SILENCE_MS: '1500' }).coreSilenceMs).toBe(1500);
  expect(() => readEnv({ ...key, SVC_CORE_SILENCE_MS: '10' })).toThrow('SVC_CORE_SILENCE_MS');
});
