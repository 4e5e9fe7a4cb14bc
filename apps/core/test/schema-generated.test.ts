import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigint, bigserial, boolean, index, table, text } from '../src/platform/tables/define.ts';
import { generatedSchema, schemaPaths } from '../src/schema-generate.ts';
import { renderSchema, type DomainTables } from '../src/platform/tables/render.ts';
import { tempDir } from './temp-dir.ts';

// Each table is written once, in src/<domain>/tables.ts, and `pnpm db:generate` writes both stores' drizzle schemas
// from them: the schemas committed are what it writes, so a change made to the tables alone cannot go unnoticed.

describe("the stores' drizzle schemas", () => {
  it.each(['sqlite', 'postgres'] as const)('are the %s schema generated from the tables, as committed', async (dialect) => {
    expect(readFileSync(schemaPaths[dialect], 'utf8'), 'run `pnpm db:generate` and commit what it writes').toBe(
      await generatedSchema(dialect),
    );
  });
});

/** A domain of the tables given, its source a file of its own. */
function domain(exports: Record<string, unknown>): DomainTables {
  const path = join(tempDir(), 'tables.ts');
  writeFileSync(path, '');
  return { name: 'scratch', path, exports };
}

describe('a table written once', () => {
  const notes = table('notes', {
    columns: {
      id: text('id').primaryKey(),
      pinned: boolean('pinned').notNull().default(false),
      size: bigint('size'),
      seq: bigserial('seq').notNull().only('postgres'),
    },
    indexes: (t) => [index('notes_seq_idx').on(t.seq).only('postgres')],
  });

  it("is each dialect's twin: booleans and 64-bit integers in its own types, what one dialect alone has in it alone", () => {
    const sqlite = renderSchema([domain({ notes })], 'sqlite');
    expect(sqlite).toContain("pinned: integer('pinned', { mode: 'boolean' }).notNull().default(false),");
    expect(sqlite).toContain("size: integer('size'),");
    expect(sqlite).not.toContain('seq');
    const postgres = renderSchema([domain({ notes })], 'postgres');
    expect(postgres).toContain("pinned: boolean('pinned').notNull().default(false),");
    expect(postgres).toContain("size: bigint('size', { mode: 'number' }),");
    expect(postgres).toContain("index('notes_seq_idx').on(t.seq),");
  });

  it('cannot reference a table that no domain has', () => {
    const tags = table('tags', { columns: { noteId: text('note_id').references('notez.id') } });
    expect(() => renderSchema([domain({ notes, tags })], 'sqlite')).toThrow('note_id references notez.id, which no table has');
  });
});
