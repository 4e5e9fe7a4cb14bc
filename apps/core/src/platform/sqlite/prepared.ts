import { getTableColumns, type Placeholder, sql, type SQLWrapper, type Table } from 'drizzle-orm';

export const p = sql.placeholder;

/** `{ column: placeholder('column') }` for every column: an insert prepared once, run with a row. */
export function placeholders<T extends Table>(table: T): Record<keyof T['_']['columns'], Placeholder> {
  return Object.fromEntries(Object.keys(getTableColumns(table)).map((name) => [name, p(name)])) as Record<
    keyof T['_']['columns'],
    Placeholder
  >;
}

/** A placeholder where drizzle's types take SQL, not a placeholder (the values an update sets). */
export const bound = (name: string) => sql`${p(name)}`;

/** `column` is one of the values of the JSON array bound as `name`: a statement prepared once holds any number of them. */
export const inJsonArray = (column: SQLWrapper, name: string) => sql`${column} in (select value from json_each(${p(name)}))`;
