import type pg from 'pg';
import { canonicalSql, foreignKey, type SchemaShape, type TableShape } from './shape.ts';

const columnsQuery = `
  select table_name, column_name, data_type, is_nullable, column_default
  from information_schema.columns where table_schema = 'public'`;

/** Every index, its key terms (columns or expressions) as PostgreSQL prints them, and a partial index's predicate. */
const indexesQuery = `
  select t.relname as table_name, i.relname as index_name, x.indisunique as unique, x.indisprimary as primary,
    array(select pg_get_indexdef(x.indexrelid, k, true) from generate_series(1, x.indnkeyatts) k)::text[] as terms,
    pg_get_expr(x.indpred, x.indrelid, true) as predicate
  from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
  where n.nspname = 'public'`;

const foreignKeysQuery = `
  select t.relname as table_name, f.relname as foreign_table, c.confdeltype as on_delete,
    array(select a.attname from unnest(c.conkey) with ordinality k(num, at)
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.at)::text[] as columns,
    array(select a.attname from unnest(c.confkey) with ordinality k(num, at)
      join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.num order by k.at)::text[] as foreign_columns
  from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_class f on f.oid = c.confrelid
    join pg_namespace n on n.oid = t.relnamespace
  where c.contype = 'f' and n.nspname = 'public'`;

const deleteActions: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

/** The tables of a migrated PostgreSQL database's public schema (drizzle keeps its bookkeeping in a schema of its own). */
export async function migratedPostgresSchema(client: pg.Pool | pg.Client): Promise<SchemaShape> {
  const schema: SchemaShape = {};
  const tableOf = (name: string): TableShape => (schema[name] ??= { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} });
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
  }>(columnsQuery);
  for (const column of columns.rows) {
    const value = column.column_default;
    tableOf(column.table_name).columns[column.column_name] = {
      type: column.data_type,
      notNull: column.is_nullable === 'NO',
      // A serial column's default names its sequence: only that it is one matters.
      default: value === null ? null : value.startsWith('nextval(') ? 'nextval' : canonicalSql(value),
    };
  }
  const indexes = await client.query<{
    table_name: string;
    index_name: string;
    unique: boolean;
    primary: boolean;
    terms: string[];
    predicate: string | null;
  }>(indexesQuery);
  for (const index of indexes.rows) {
    const table = tableOf(index.table_name);
    if (index.primary) table.primaryKey = index.terms.map(canonicalSql);
    else
      table.indexes[index.index_name] = {
        terms: index.terms.map(canonicalSql),
        unique: index.unique,
        where: index.predicate === null ? null : canonicalSql(index.predicate),
      };
  }
  const foreignKeys = await client.query<{
    table_name: string;
    foreign_table: string;
    on_delete: string;
    columns: string[];
    foreign_columns: string[];
  }>(foreignKeysQuery);
  for (const key of foreignKeys.rows) {
    tableOf(key.table_name).foreignKeys[key.columns.join(', ')] = foreignKey(
      key.foreign_table,
      key.foreign_columns,
      deleteActions[key.on_delete] ?? key.on_delete,
    );
  }
  return schema;
}
