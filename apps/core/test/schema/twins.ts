import type { SchemaShape, TableShape } from './shape.ts';

/** `entries` of `table` without those named `table.name` in `names`. */
const kept = <T>(table: string, entries: Record<string, T>, names: string[]) =>
  Object.fromEntries(Object.entries(entries).filter(([name]) => !names.includes(`${table}.${name}`)));

function mapTables<T, U>(tables: Record<string, T>, map: (table: T, name: string) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(tables).map(([name, table]) => [name, map(table, name)]));
}

/** Per table, what is keyed by column name (e.g. the values each holds), without the columns named `table.column` in `names`. */
export const omitColumns = <T>(tables: Record<string, Record<string, T>>, names: string[]) =>
  mapTables(tables, (columns, table) => kept(table, columns, names));

/** `schema` without the columns and indexes named `table.name` in `names`. */
export const omitFromSchema = (schema: SchemaShape, names: string[]): SchemaShape =>
  mapTables(schema, (table, name) => ({ ...table, columns: kept(name, table.columns, names), indexes: kept(name, table.indexes, names) }));

/** `schema` with each column's type replaced by `typeOf` it. */
export const withTypes = (schema: SchemaShape, typeOf: (type: string) => string): SchemaShape =>
  mapTables(schema, (table: TableShape) => ({
    ...table,
    columns: mapTables(table.columns, (column) => ({ ...column, type: typeOf(column.type) })),
  }));

/** Whether `name` (`table.name`) is a column or an index of `schema`. */
export function namesSomething(schema: SchemaShape, name: string): boolean {
  const [table, entry] = name.split('.') as [string, string];
  const shape = schema[table];
  return shape !== undefined && (entry in shape.columns || entry in shape.indexes);
}
