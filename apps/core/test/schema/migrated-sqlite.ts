import type Database from 'better-sqlite3';
import { canonicalSql, foreignKey, type SchemaShape, type TableShape } from './shape.ts';

interface TableInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

interface IndexList {
  name: string;
  unique: number;
  /** `c` made by CREATE INDEX, `u` by a UNIQUE constraint, `pk` by the primary key. */
  origin: string;
  partial: number;
}

interface ForeignKeyList {
  id: number;
  table: string;
  from: string;
  to: string;
  on_delete: string;
}

/** The terms between the parentheses after `ON table`, split at their top-level commas. */
function indexTerms(createIndex: string): string[] {
  const open = createIndex.indexOf('(', createIndex.search(/\sON\s/i));
  const terms: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let at = open; at < createIndex.length; at++) {
    const char = createIndex[at];
    if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return [...terms, createIndex.slice(start, at)];
    else if (char === ',' && depth === 1) {
      terms.push(createIndex.slice(start, at));
      start = at + 1;
    }
  }
  throw new Error(`no terms in ${createIndex}`);
}

function migratedTable(db: Database.Database, table: string): TableShape {
  const shape: TableShape = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} };
  const columns = db.prepare(`select * from pragma_table_info(?)`).all(table) as TableInfo[];
  for (const column of columns) {
    shape.columns[column.name] = {
      type: column.type.toLowerCase(),
      notNull: column.notnull === 1,
      default: column.dflt_value === null ? null : canonicalSql(column.dflt_value),
    };
  }
  shape.primaryKey = columns
    .filter((column) => column.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((column) => column.name);
  const indexes = db.prepare(`select * from pragma_index_list(?)`).all(table) as IndexList[];
  for (const index of indexes.filter(({ origin }) => origin !== 'pk')) {
    const createIndex = db.prepare(`select sql from sqlite_master where type = 'index' and name = ?`).pluck().get(index.name) as string;
    const keys = db.prepare(`select name from pragma_index_info(?) order by seqno`).all(index.name) as { name: string | null }[];
    // An expression's key has no column name: its text is read from the statement that made the index.
    const expressions = indexTerms(createIndex);
    shape.indexes[index.name] = {
      terms: keys.map((key, at) => key.name ?? canonicalSql(expressions[at]!)),
      unique: index.unique === 1,
      where: index.partial === 1 ? canonicalSql(createIndex.slice(createIndex.search(/\sWHERE\s/i) + 7)) : null,
    };
  }
  const references = db.prepare(`select * from pragma_foreign_key_list(?) order by id, seq`).all(table) as ForeignKeyList[];
  for (const id of new Set(references.map((reference) => reference.id))) {
    const parts = references.filter((reference) => reference.id === id);
    shape.foreignKeys[parts.map((part) => part.from).join(', ')] = foreignKey(
      parts[0]!.table,
      parts.map((part) => part.to),
      parts[0]!.on_delete,
    );
  }
  return shape;
}

/** The tables of a migrated SQLite database, drizzle's own bookkeeping aside. */
export function migratedSqliteSchema(db: Database.Database): SchemaShape {
  const tables = db
    .prepare(`select name from sqlite_master where type = 'table' and name not glob 'sqlite_*' and name not glob '__drizzle*'`)
    .pluck()
    .all() as string[];
  return Object.fromEntries(tables.map((table) => [table, migratedTable(db, table)]));
}
