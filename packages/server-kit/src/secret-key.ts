import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './env.ts';

const hint = 'openssl rand -base64 32';

/** A new random 256-bit key, base64-encoded, as SVC_SECRET_KEY takes it. */
export const generateSecretKey = (): string => randomBytes(32).toString('base64');

/**
 * Local mode's key, generated once into the data dir (0600) and reused. Processes that start together may race
 * to create it: the file appears whole (linked from a written temporary file), and the loser reads the winner's.
 */
export function localSecretKey(dataDir: string): string {
  const file = join(dataDir, 'secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${generateSecretKey()}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * SVC_SECRET_KEY as bytes: required outside local mode; in local mode a missing key is the data dir's. Its value
 * is never quoted in the error, unlike other variables', since it is a secret.
 */
export function readSecretKey(value: string | undefined, local?: { dataDir: string }): Buffer {
  const key = value ?? (local ? localSecretKey(local.dataDir) : undefined);
  if (key === undefined) throw new ConfigError(`invalid configuration:\n  SVC_SECRET_KEY: required outside local mode (${hint})`);
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length < 32) throw new ConfigError(`invalid configuration:\n  SVC_SECRET_KEY: expected at least 32 bytes, base64 (${hint})`);
  return bytes;
}
