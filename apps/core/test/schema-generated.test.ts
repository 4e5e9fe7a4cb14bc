import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSchema, schemaPaths } from '../src/store/tables/generate.ts';

// Each table is written once, in src/<domain>/tables.ts, and `pnpm db:generate` writes both stores' drizzle schemas
// from them: the schemas committed are what it writes, so a change made to the tables alone cannot go unnoticed.

describe("the stores' drizzle schemas", () => {
  it.each(['sqlite', 'postgres'] as const)('are the %s schema generated from the tables, as committed', async (dialect) => {
    expect(readFileSync(schemaPaths[dialect], 'utf8'), 'run `pnpm db:generate` and commit what it writes').toBe(
      await generatedSchema(dialect),
    );
  });
});
