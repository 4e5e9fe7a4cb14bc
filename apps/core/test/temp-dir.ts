import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// Each test file imports its own copy of this module: one root per file, removed after the file's tests.
const root = mkdtempSync(join(tmpdir(), 'svc-core-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;

/** A fresh, empty directory for a test's data, removed after the test file. */
export function tempDir(): string {
  const dir = join(root, String(made++));
  mkdirSync(dir);
  return dir;
}
