/**
 * The words a table is described with once, for both stores: `scripts/generate-schema.ts` writes each dialect's
 * drizzle schema from these descriptions (`src/<domain>/tables.ts`), then drizzle-kit writes each dialect's migration.
 *
 * The words are drizzle's, minus the dialect: `boolean` is SQLite's 0/1 integer and PostgreSQL's boolean, `bigint` is
 * SQLite's (64-bit) integer and PostgreSQL's bigint, both read as numbers. A reference names its target by SQL name,
 * `table.column`, so a domain's tables need not import another domain's. Comments on a table, a column or an index
 * are copied to the generated schema.
 *
 * To add a column: write it in its table, run `pnpm db:generate` (both schemas, then both migrations), commit all.
 */

/** The two stores' SQL dialects. */
export type Dialect = 'sqlite' | 'postgres';

/** A column's type, whatever the dialect: see the file's doc for what each is in each dialect. */
export type ColumnKind = 'text' | 'integer' | 'bigint' | 'boolean' | 'bigserial';

/** What a foreign key does when the row it points to is deleted. */
export type OnDelete = 'cascade' | 'set null' | 'restrict' | 'no action';

/** One column of a table, described with drizzle's modifiers. */
export class Column {
  isPrimaryKey = false;
  isNotNull = false;
  isUnique = false;
  defaultValue: string | number | boolean | undefined;
  reference: { target: string; onDelete?: OnDelete } | undefined;
  dialect: Dialect | undefined;

  constructor(
    readonly kind: ColumnKind,
    readonly name: string,
    readonly values?: readonly string[],
  ) {}

  /** The table's primary key (a key of several columns is `primaryKey(...)` among the table's indexes). */
  primaryKey(): this {
    this.isPrimaryKey = true;
    return this;
  }

  /** NOT NULL: drizzle types it without `null`. */
  notNull(): this {
    this.isNotNull = true;
    return this;
  }

  /** A unique constraint of its own, named as drizzle names it (`<table>_<column>_unique`). */
  unique(): this {
    this.isUnique = true;
    return this;
  }

  /** The value an insert that leaves the column out gets. */
  default(value: string | number | boolean): this {
    this.defaultValue = value;
    return this;
  }

  /** A foreign key to `target`, written `table.column` in SQL names. */
  references(target: string, options: { onDelete?: OnDelete } = {}): this {
    this.reference = { target, ...options };
    return this;
  }

  /** A column one dialect alone has (the schema twins test lists why). */
  only(dialect: Dialect): this {
    this.dialect = dialect;
    return this;
  }
}

/** Text; with `values`, drizzle types it as their union (it checks nothing in the database). */
export const text = (name: string, options?: { enum: readonly string[] }): Column => new Column('text', name, options?.enum);
/** A 32-bit integer on PostgreSQL. */
export const integer = (name: string): Column => new Column('integer', name);
/** A 64-bit integer, read as a number. */
export const bigint = (name: string): Column => new Column('bigint', name);
/** A boolean: SQLite keeps it as 0 or 1. */
export const boolean = (name: string): Column => new Column('boolean', name);
/** PostgreSQL's 64-bit sequence (`.only('postgres')`: SQLite has its rowid). */
export const bigserial = (name: string): Column => new Column('bigserial', name);

/** An SQL expression over a table's columns: `sql\`${t.status} = 'pending'\``, as drizzle writes one. */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly columns: readonly Column[],
  ) {}
}

/** Writes an SQL expression: a partial index's condition, or an indexed expression. */
export const sql = (strings: TemplateStringsArray, ...columns: Column[]): Sql => new Sql([...strings], columns);

/** An index, a unique index or a primary key of several columns. */
export class Index {
  parts: (Column | Sql)[] = [];
  condition: Sql | undefined;
  dialect: Dialect | undefined;

  constructor(
    readonly kind: 'index' | 'uniqueIndex' | 'primaryKey',
    readonly name: string | undefined,
  ) {}

  /** The indexed columns or expressions, in order. */
  on(...parts: (Column | Sql)[]): this {
    this.parts = parts;
    return this;
  }

  /** Makes it a partial index: only the rows `condition` holds for. */
  where(condition: Sql): this {
    this.condition = condition;
    return this;
  }

  /** An index one dialect alone has (the schema twins test lists why). */
  only(dialect: Dialect): this {
    this.dialect = dialect;
    return this;
  }
}

/** An index, named as the migrations name it. */
export const index = (name: string): Index => new Index('index', name);
/** A unique index, named as the migrations name it. */
export const uniqueIndex = (name: string): Index => new Index('uniqueIndex', name);
/** A primary key of several columns, named as drizzle names it. */
export const primaryKey = (...columns: Column[]): Index => new Index('primaryKey', undefined).on(...columns);

/** A table: its SQL name, its columns by their name in code, and its indexes. */
export interface Table<C extends Record<string, Column> = Record<string, Column>> {
  readonly name: string;
  /** Its place among all the tables described: the generated schema keeps the order they are written in. */
  readonly order: number;
  readonly columns: C;
  readonly indexes: readonly Index[];
}

let described = 0;

/** Describes a table; `indexes` gets its columns, as drizzle's third argument does. */
export function table<C extends Record<string, Column>>(name: string, description: { columns: C; indexes?: (t: C) => Index[] }): Table<C> {
  const { columns, indexes } = description;
  return { name, order: described++, columns, indexes: indexes?.(columns) ?? [] };
}
