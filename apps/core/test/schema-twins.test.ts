import { join } from 'node:path';
import { createPostgresDatabase, dropPostgresDatabases } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/platform/postgres/database.ts';
import { openDatabase } from '../src/platform/sqlite/database.ts';
import { declaredSchema, declaredValues } from './schema/declared.ts';
import { migratedPostgresSchema } from './schema/migrated-postgres.ts';
import { migratedSqliteSchema } from './schema/migrated-sqlite.ts';
import type { SchemaShape } from './schema/shape.ts';
import { namesSomething, omitColumns, omitFromSchema, withTypes } from './schema/twins.ts';
import { tempDir } from './temp-dir.ts';

// Both stores hold the same records: the SQLite and the PostgreSQL schema are twins, table for table and column for
// column, with the same keys, indexes and unique constraints, and each store's migrations build its schema.

/** Where the twins differ on purpose, by `table.column` or `table.index`: one reason each. */
const differences: Record<string, string> = {
  'chat_messages.seq': "PostgreSQL has no rowid, by which SQLite reads a chat's messages in the order they were written",
  'chat_messages.chat_messages_chat_idx': "keyed by seq on PostgreSQL, the order its reads of a chat's messages use",
  'flag_events.seq': "PostgreSQL has no rowid, by which SQLite reads a flag's history in the order it was written",
  'flag_events.flag_events_flag_idx': "keyed by seq on PostgreSQL, the order its reads of a flag's history use",
};

/**
 * The SQLite type that stores what a PostgreSQL column holds: SQLite's integers are 64-bit, and it keeps booleans as
 * 0 and 1. Timestamps are ISO 8601 text on both.
 */
const sqliteTypes: Record<string, string> = { text: 'text', integer: 'integer', bigint: 'integer', boolean: 'integer' };

const inSqliteTypes = (schema: SchemaShape) => withTypes(schema, (type) => sqliteTypes[type] ?? `${type}, which SQLite has no twin of`);

const listed = Object.keys(differences);

/** The twins compared: each without its listed differences, the PostgreSQL one in SQLite's types. */
function expectTwins(sqlite: SchemaShape, postgres: SchemaShape): void {
  expect(inSqliteTypes(omitFromSchema(postgres, listed))).toEqual(omitFromSchema(sqlite, listed));
}

describe('the drizzle definitions of the two stores', () => {
  it('declare the same tables, columns, keys, indexes and unique constraints', () => {
    expectTwins(declaredSchema('sqlite'), declaredSchema('postgres'));
  });

  it('give the store the same values from each column: booleans as booleans, the same enums', () => {
    expect(omitColumns(declaredValues('postgres'), listed)).toEqual(omitColumns(declaredValues('sqlite'), listed));
  });

  it('differ only where listed, and each listed difference names something that is there', () => {
    const [sqlite, postgres] = [declaredSchema('sqlite'), declaredSchema('postgres')];
    expect(listed.filter((name) => !namesSomething(sqlite, name) && !namesSomething(postgres, name))).toEqual([]);
  });
});

describe('the migrations of the two stores', () => {
  let sqlite: SchemaShape;
  let postgres: SchemaShape;

  beforeAll(async () => {
    const db = openDatabase(join(tempDir(), 'svc.db'));
    sqlite = migratedSqliteSchema(db.$client);
    db.$client.close();
    const pg = await openPostgres(await createPostgresDatabase());
    try {
      postgres = await migratedPostgresSchema(pg.$client);
    } finally {
      await pg.$client.end();
    }
  });
  afterAll(dropPostgresDatabases);

  it('build the SQLite schema the definitions declare', () => {
    expect(sqlite).toEqual(declaredSchema('sqlite'));
  });

  it('build the PostgreSQL schema the definitions declare', () => {
    expect(postgres).toEqual(declaredSchema('postgres'));
  });

  it('build twin databases', () => {
    expectTwins(sqlite, postgres);
  });
});
