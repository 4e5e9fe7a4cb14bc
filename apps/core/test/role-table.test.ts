import { readFileSync } from 'node:fs';
import { roleTable } from '@svc/domain';
import { expect, it } from 'vitest';

it("the API document's role table is the one core decides by", () => {
  const api = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  // On a difference, paste the expected table into the "Members and roles" section of docs/api.md.
  expect(api, `docs/api.md's role table should read:\n${roleTable()}`).toContain(roleTable());
});
