import Database from 'better-sqlite3';
import pg from 'pg';

/** A column as the database's catalog lists it. */
export interface Column {
  name: string;
  /** Filled by the database (a sequence, an integer primary key): left out of a copy so each copy gets its own. */
  generated: boolean;
}

/** A foreign key as the database's catalog lists it: `table.column` references `references`. */
export interface ForeignKey {
  table: string;
  column: string;
  references: string;
}

/** One connection to a store's database, with what the multiplication needs to know of its dialect. */
export interface BenchDatabase {
  run(statement: string): Promise<void>;
  /** The first column of the first row of `query`, as a number. */
  number(query: string): Promise<number>;
  columns(table: string): Promise<Column[]>;
  foreignKeys(): Promise<ForeignKey[]>;
  /** What orders `table`'s rows (aliased `alias`) as they were inserted, for copies to keep their order. */
  insertionOrder(table: string, alias: string): Promise<string>;
  /** An ISO 8601 UTC timestamp column moved `seconds` (an SQL expression) back, still ISO 8601 UTC with milliseconds. */
  earlier(column: string, seconds: string): string;
  /** Fresh planner statistics after a bulk insert, where the database would have gathered them on its own by then. */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

export function openSqlite(file: string): BenchDatabase {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const tables = () =>
    (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]).map(
      ({ name }) => name,
    );
  return {
    async run(statement) {
      db.exec(statement);
    },
    async number(query) {
      return Number(db.prepare(query).pluck().get());
    },
    async columns(table) {
      const rows = db.pragma(`table_info(${table})`) as { name: string; type: string; pk: number }[];
      // An INTEGER PRIMARY KEY is the rowid, which SQLite numbers itself.
      const rowid =
        rows.filter((row) => row.pk > 0).length === 1 ? rows.find((row) => row.pk === 1 && /^integer$/i.test(row.type)) : undefined;
      return rows.map((row) => ({ name: row.name, generated: row === rowid }));
    },
    async foreignKeys() {
      return tables().flatMap((table) =>
        (db.pragma(`foreign_key_list(${table})`) as { table: string; from: string }[]).map((key) => ({
          table,
          column: key.from,
          references: key.table,
        })),
      );
    },
    insertionOrder: async (_, alias) => `${alias}.rowid`,
    earlier: (column, seconds) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, '-' || (${seconds}) || ' seconds')`,
    // A store grown by the code has no planner statistics unless something runs ANALYZE, and nothing in core does.
    async analyze() {},
    async close() {
      db.close();
    },
  };
}

export async function openPostgres(url: string): Promise<BenchDatabase> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = async <T extends pg.QueryResultRow>(query: string, values: unknown[] = []) => (await client.query<T>(query, values)).rows;
  async function columns(table: string): Promise<Column[]> {
    const found = await rows<{ column_name: string; column_default: string | null; is_identity: string }>(
      `select column_name, column_default, is_identity from information_schema.columns
       where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
      [table],
    );
    return found.map((row) => ({
      name: row.column_name,
      generated: row.is_identity === 'YES' || Boolean(row.column_default?.startsWith('nextval(')),
    }));
  }
  return {
    async run(statement) {
      await client.query(statement);
    },
    async number(query) {
      const [row] = await rows<Record<string, unknown>>(query);
      return Number(Object.values(row ?? {})[0]);
    },
    columns,
    async foreignKeys() {
      return rows<ForeignKey>(
        `select source.relname as table, attribute.attname as column, target.relname as references
         from pg_constraint c
         join pg_class source on source.oid = c.conrelid
         join pg_class target on target.oid = c.confrelid
         join pg_attribute attribute on attribute.attrelid = c.conrelid and attribute.attnum = any (c.conkey)
         where c.contype = 'f' and source.relnamespace = current_schema()::regnamespace`,
      );
    },
    async insertionOrder(table, alias) {
      const sequenced = (await columns(table)).filter((column) => column.generated);
      // A sequence numbers rows as they come; without one, the heap's order is the closest there is.
      return sequenced.length > 0 ? sequenced.map((column) => `${alias}."${column.name}"`).join(', ') : `${alias}.ctid`;
    },
    earlier: (column, seconds) =>
      `to_char((${column}::timestamptz - make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    // Autovacuum analyzes a table once enough of it changed: a database grown over months has its statistics.
    async analyze() {
      await client.query('analyze');
    },
    async close() {
      await client.end();
    },
  };
}
