import { getTableName, is, SQL, type Table } from 'drizzle-orm';
import { getTableConfig as postgresTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as postgresSchema from '../../src/platform/postgres/schema.ts';
import * as sqliteSchema from '../../src/platform/sqlite/schema.ts';
import { canonicalSql, foreignKey, type ColumnShape, type SchemaShape, type TableShape } from './shape.ts';

export type StoreKind = 'sqlite' | 'postgres';

/** What `getTableConfig` answers in either dialect, as far as the comparison reads it. */
interface TableConfig {
  name: string;
  columns: DeclaredColumn[];
  indexes: { config: { name?: string; columns: unknown[]; unique: boolean; where?: SQL } }[];
  foreignKeys: { onDelete?: string; reference(): { columns: Named[]; foreignTable: Table; foreignColumns: Named[] } }[];
  primaryKeys: { columns: Named[] }[];
  uniqueConstraints: { columns: Named[]; getName(): string | undefined }[];
}

interface Named {
  name: string;
}

interface DeclaredColumn extends Named {
  notNull: boolean;
  primary: boolean;
  isUnique: boolean;
  uniqueName?: string | undefined;
  hasDefault: boolean;
  default?: unknown;
  /** The JavaScript type the store reads from the column. */
  dataType: string;
  enumValues?: readonly string[] | undefined;
  getSQLType(): string;
}

/** Each store's tables as `getTableConfig` describes them, and the dialect that prints its SQL. */
const stores: Record<StoreKind, { tables: () => TableConfig[]; dialect: SQLiteSyncDialect | PgDialect }> = {
  sqlite: {
    tables: () => Object.values(sqliteSchema).flatMap((value) => (is(value, SQLiteTable) ? [sqliteTableConfig(value)] : [])),
    dialect: new SQLiteSyncDialect(),
  },
  postgres: {
    tables: () => Object.values(postgresSchema).flatMap((value) => (is(value, PgTable) ? [postgresTableConfig(value)] : [])),
    dialect: new PgDialect(),
  },
};

const renderSql = (kind: StoreKind, expression: SQL) => canonicalSql(stores[kind].dialect.sqlToQuery(expression).sql);

/** A serial column is an integer type whose default is the next value of its sequence. */
const serialTypes: Record<string, string> = { serial: 'integer', bigserial: 'bigint' };

function declaredColumn(kind: StoreKind, column: DeclaredColumn): ColumnShape {
  const type = column.getSQLType();
  const serial = serialTypes[type];
  if (serial) return { type: serial, notNull: column.notNull, default: 'nextval' };
  let value: string | null = null;
  if (column.hasDefault && column.default !== undefined) {
    if (is(column.default, SQL)) value = renderSql(kind, column.default);
    else if (typeof column.default === 'string') value = `'${column.default.replaceAll("'", "''")}'`;
    else value = canonicalSql(String(column.default));
  }
  return { type, notNull: column.notNull, default: value };
}

function declaredTable(kind: StoreKind, table: TableConfig): TableShape {
  const shape: TableShape = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} };
  for (const column of table.columns) {
    shape.columns[column.name] = declaredColumn(kind, column);
    if (column.primary) shape.primaryKey = [column.name];
    if (column.isUnique) shape.indexes[column.uniqueName!] = { terms: [column.name], unique: true, where: null };
  }
  for (const key of table.primaryKeys) shape.primaryKey = key.columns.map((column) => column.name);
  for (const unique of table.uniqueConstraints) {
    shape.indexes[unique.getName() ?? ''] = { terms: unique.columns.map((column) => column.name), unique: true, where: null };
  }
  for (const { config } of table.indexes) {
    shape.indexes[config.name ?? ''] = {
      terms: config.columns.map((term) => (is(term, SQL) ? renderSql(kind, term) : (term as Named).name)),
      unique: config.unique,
      where: config.where ? renderSql(kind, config.where) : null,
    };
  }
  for (const key of table.foreignKeys) {
    const { columns, foreignTable, foreignColumns } = key.reference();
    const names = columns.map((column) => column.name);
    shape.foreignKeys[names.join(', ')] = foreignKey(
      getTableName(foreignTable),
      foreignColumns.map((column) => column.name),
      key.onDelete ?? 'no action',
    );
  }
  return shape;
}

/** The tables a store's drizzle definitions declare. */
export function declaredSchema(kind: StoreKind): SchemaShape {
  return Object.fromEntries(stores[kind].tables().map((table) => [table.name, declaredTable(kind, table)]));
}

/** Per table and column, what the store reads from it: its JavaScript type, and the values an enum allows. */
export function declaredValues(kind: StoreKind): Record<string, Record<string, string>> {
  return Object.fromEntries(
    stores[kind]
      .tables()
      .map((table) => [
        table.name,
        Object.fromEntries(table.columns.map((column) => [column.name, [column.dataType, ...(column.enumValues ?? [])].join(' ')])),
      ]),
  );
}
