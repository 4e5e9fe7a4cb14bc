import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * Frames the WAL may hold before core's own connection checkpoints it, should the checkpointer fall behind (40 MB
 * of 4 KiB pages): a checkpoint run by the writer also lets the next write start the WAL over.
 */
const writerCheckpointFrames = 10_000;
/** SQLite's own default, which core's connection takes again if the checkpointer stops. */
const defaultCheckpointFrames = 1_000;
/** How soon the checkpointer looks again after copying frames, and after finding none. */
const busyIntervalMs = 50;
const idleIntervalMs = 500;

/**
 * The checkpointer's thread: its own connection to the file, copying the WAL's frames into the database
 * (PASSIVE: it never waits on core's writes, nor they on it). Plain JavaScript, so that it runs the same from the
 * sources, the built app and the tests; the driver is the path core's own import resolves to.
 */
const checkpointerThread = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
let timer;
const checkpoint = () => {
  let copied = 0;
  try {
    copied = db.pragma('wal_checkpoint(PASSIVE)')[0].checkpointed;
  } catch (error) {
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') throw error; // tried again in a moment
  }
  timer = setTimeout(checkpoint, copied > 0 ? workerData.busyIntervalMs : workerData.idleIntervalMs);
};
checkpoint();
parentPort.once('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Commits a store makes before its checkpointer starts: a store that writes little (a test's, a quiet local core)
 * never pays for the thread, about 70 ms of CPU to start and load the driver in, and keeps SQLite's own checkpoints.
 */
const startAfterCommits = 200;

/**
 * Checkpoints the WAL of `sqlite`'s file on a thread of its own, once the store has made `startAfterCommits`
 * commits (`committed` counts them). A checkpoint copies pages into the database file and waits for the disk twice
 * (fsync); run by the writer, as SQLite does by default after the commit that passes 1,000 frames, it held core's
 * one thread for 5 to 30 ms several times a second under load. Core's connection keeps a checkpoint of its own for
 * a WAL past `writerCheckpointFrames`, and goes back to SQLite's default should the thread fail. `close` stops the
 * thread and closes its connection.
 */
export function walCheckpointer(sqlite: Database.Database, file: string): { committed(): void; close(): Promise<void> } {
  let commits = 0;
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let closing = false;

  function start(): void {
    sqlite.pragma(`wal_autocheckpoint = ${writerCheckpointFrames}`);
    const thread = new Worker(checkpointerThread, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, busyIntervalMs, idleIntervalMs },
    });
    thread.unref(); // never what keeps a process running
    exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.once('error', (error) => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${defaultCheckpointFrames}`);
      process.emitWarning(`the SQLite checkpointer stopped (${error.message}); core's writes checkpoint the WAL again`);
    });
    worker = thread;
  }

  return {
    committed() {
      if (++commits === startAfterCommits && !closing) start();
    },
    async close() {
      if (!closing) {
        closing = true;
        worker?.postMessage('close');
      }
      return exited;
    },
  };
}
