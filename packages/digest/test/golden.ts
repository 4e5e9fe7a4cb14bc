import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

const fixture = (name: string) => new URL(`./fixtures/${name}.md`, import.meta.url);

/**
 * Compares rendered markdown byte for byte with its golden file. `UPDATE_GOLDEN=1` rewrites the file instead:
 * review the diff of the fixtures before committing it.
 */
export function expectGolden(name: string, text: string): string {
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(fixture(name), text);
  else if (!existsSync(fixture(name))) throw new Error(`no golden file ${name}.md: run with UPDATE_GOLDEN=1 and review it`);
  expect(text).toBe(readFileSync(fixture(name), 'utf8'));
  return text;
}
