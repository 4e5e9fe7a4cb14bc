import { readFileSync } from 'node:fs';
import { roleTable } from '@svc/domain';
import { expect, it } from 'vitest';

it("the README's role table is the one core decides by", () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  // On a difference, paste the expected table into the README's "Members and roles" section.
  expect(readme, `the README's role table should read:\n${roleTable()}`).toContain(roleTable());
});
