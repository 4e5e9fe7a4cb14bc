import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const madeDirs: string[] = [];

/** A fresh temporary directory; `removeTempDirs()` (in an afterAll) removes the ones a test file made. */
export function tempDir(prefix = 'svc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
