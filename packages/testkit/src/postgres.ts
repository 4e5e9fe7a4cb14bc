import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL server, as a superuser: where the tests create their databases (SVC_TEST_POSTGRES_URL). */
export const postgresServerUrl = process.env.SVC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const madeDatabases: string[] = [];

const databaseUrl = (name: string) => {
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function onServer<T>(work: (client: pg.Client) => Promise<T>, url = postgresServerUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database on the test server, its URL returned; `dropPostgresDatabases()` (in an afterAll) drops the
 * ones a test file made. With `template`, a copy of that database (which must have no open connections).
 */
export async function createPostgresDatabase(template?: string): Promise<string> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  madeDatabases.push(name);
  await onServer((client) => client.query(`create database ${name}${template ? ` template ${new URL(template).pathname.slice(1)}` : ''}`));
  return databaseUrl(name);
}

async function drop(names: string[]): Promise<void> {
  if (names.length === 0) return;
  await onServer(async (client) => {
    for (const name of names) await client.query(`drop database if exists ${name} with (force)`);
  });
}

export async function dropPostgresDatabases(): Promise<void> {
  await drop(madeDatabases.splice(0));
}

/** Drops one database `createPostgresDatabase()` made, e.g. when the platform on it stops. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const index = madeDatabases.indexOf(name);
  if (index >= 0) madeDatabases.splice(index, 1);
  await drop([name]);
}

/** The rows of one query on the database at `url`, e.g. to count what several processes wrote there. */
export async function queryPostgres<T extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  return onServer(async (client) => (await client.query<T>(text, values)).rows, url);
}

/**
 * A maker of databases that `migrate` has set up: the first call migrates one database, and every call answers a
 * copy of it, much faster than migrating each anew.
 */
export function migratedPostgresDatabases(migrate: (url: string) => Promise<void>): () => Promise<string> {
  let migrated: Promise<string> | undefined;
  return async () => {
    migrated ??= createPostgresDatabase().then(async (url) => {
      await migrate(url);
      return url;
    });
    return createPostgresDatabase(await migrated);
  };
}

/**
 * Runs `statement` (`select … for update`, `lock table …`) in a transaction left open until `release()`: whoever
 * needs what it locked waits there, e.g. for a test to kill it mid-transaction or to see its deadline pass.
 */
export async function holdLock(url: string, statement: string, values: unknown[] = []): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(statement, values);
  return {
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}

/** How many sessions on the database at `url` wait for a lock in a statement starting with `statement`. */
export async function lockWaits(url: string, statement: string): Promise<number> {
  const [row] = await queryPostgres<{ n: string }>(
    url,
    "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike $1",
    [`${statement}%`],
  );
  return Number(row!.n);
}

/**
 * Records the text of every query a node-postgres client of this process sends, until `stop()`. Each is one round trip
 * to PostgreSQL: node-postgres sends a client's next query only once the last one's answer is in.
 */
export function recordQueries(): { queries: string[]; stop(): void } {
  const queries: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string };
    queries.push(typeof config === 'string' ? config : config.text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return {
    queries,
    stop: () => {
      pg.Client.prototype.query = query;
    },
  };
}
