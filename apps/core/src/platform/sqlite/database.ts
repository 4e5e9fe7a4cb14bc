import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.ts';
import { migrationsFolders } from '../../migrations.ts';

export type SqliteDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const migrationsFolder = migrationsFolders.sqlite;

/**
 * The database, its WAL and its shared-memory index hold every workspace's data: readable by core's user alone,
 * like the key files. SQLite gives the WAL and index the database file's mode when it creates them; files left by
 * an earlier version with a wider mode are narrowed too.
 */
function keepToOwner(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Opens (creating if needed, 0600) the SQLite file in WAL mode and applies the committed migrations. */
export function openDatabase(file: string): SqliteDb {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
    closeSync(openSync(file, 'a', 0o600));
    keepToOwner(file);
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:') keepToOwner(file);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return db;
}
