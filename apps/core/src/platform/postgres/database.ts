import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { migrationsFolders } from '../../migrations.ts';
import { budgetedPool } from './call-deadlines.ts';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

const migrationsFolder = migrationsFolders.postgres;

/** SVC_DATABASE_STATEMENT_TIMEOUT_MS unless told: a call's time for the database, and each statement's of work outside calls. */
export const defaultStatementTimeoutMs = 10_000;

/** How much longer than the statement deadline a call waits for the server's answer before it gives up. */
const answerGraceMs = 1_000;

/** The advisory lock every core takes to migrate: cores starting at once migrate one after the other, so once. */
const migrationLock = 7_302_115_001;

export interface PostgresOptions {
  /** Connections this core keeps open at most (SVC_DATABASE_POOL). */
  poolSize?: number;
  /**
   * How long a call may wait on the database, its statements (waits for locks included) and its waits for a connection
   * together, before what it waits for is cancelled and it answers 503; and how long each statement of work outside
   * calls may run (SVC_DATABASE_STATEMENT_TIMEOUT_MS). Migrations have no limit.
   */
  statementTimeoutMs?: number;
  /**
   * How long a call waits for a connection, one of the pool's to be free or a new one to open, before it answers 503
   * (SVC_DATABASE_CONNECT_TIMEOUT_MS).
   */
  connectTimeoutMs?: number;
}

/**
 * Connects to the database at `url` and applies the committed migrations under an advisory lock: the first core
 * to start migrates, the others wait for it and find nothing left to do.
 */
export async function openPostgres(
  url: string,
  { poolSize = 10, statementTimeoutMs = defaultStatementTimeoutMs, connectTimeoutMs = 5_000 }: PostgresOptions = {},
): Promise<PgDb> {
  // A database out of reach, every connection busy, or a table another session holds locked: each fails a call within
  // seconds rather than holding it.
  const pool = budgetedPool(
    {
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      // A server that stopped answering (a stopped process, a hung host) cancels nothing: the client gives up a second
      // after the server's own deadline, and the pool drops that connection.
      query_timeout: statementTimeoutMs + answerGraceMs,
    },
    { statementTimeoutMs, connectTimeoutMs },
  );
  // A connection the server drops (a restart, a failover) must not end core: the pool replaces an idle one on the next
  // query, and the query a busy one was running fails with the error. Without a listener of its own, a busy
  // connection's error would be thrown as an uncaught exception.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    // On a connection of its own, with no deadline: waiting for another core's migration, and migrating a large
    // table, take as long as they take.
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [migrationLock]);
      try {
        await migrate(drizzle({ client }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [migrationLock]);
      }
    } finally {
      await client.end();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return drizzle({ client: pool, schema });
}
