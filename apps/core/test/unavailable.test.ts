import { join } from 'node:path';
import { createPostgresDatabase, dropPostgresDatabases, freePort, startSilentPeer, startTcpProxy } from '@svc/testkit';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { unavailable } from '../src/platform/unavailable.ts';
import { tempDir } from './temp-dir.ts';

afterAll(dropPostgresDatabases);

/** The code core answers a call that failed with `error`: 503 `core_unavailable`, or the 500 of any other fault. */
const answerTo = (error: unknown) => unavailable(error)?.code ?? 'internal_error';

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

/** As drizzle throws a driver's error: wrapped, with the statement. */
const asDrizzleThrowsIt = (error: unknown) => new Error('Failed query: select 1\nparams: ', { cause: error });

async function clientOf(url: string, config: pg.ClientConfig = {}): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, ...config });
  client.on('error', () => {});
  await client.connect();
  return client;
}

it('answers 503 to what node-postgres throws of a server out of reach, restarting, or that ended the session', async () => {
  const url = await createPostgresDatabase();
  const failures: Record<string, unknown> = {};

  const closed = await freePort();
  failures.refused = await failureOf(() => new pg.Pool({ host: '127.0.0.1', port: closed, user: 'postgres' }).query('select 1'));

  const silent = await startSilentPeer();
  const hanging = new pg.Pool({ host: '127.0.0.1', port: silent.port, user: 'postgres', connectionTimeoutMillis: 100 });
  failures.connectTimeout = await failureOf(() => hanging.query('select 1'));
  await silent.close();

  const ended = await clientOf(url);
  const [{ pid }] = (await ended.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
  const admin = await clientOf(url);
  failures.terminated = await failureOf(async () => {
    const running = ended.query('select pg_sleep(30)');
    const terminate = 'select pg_terminate_backend(pid) from pg_stat_activity where pid = $1 and wait_event = $2';
    await expect.poll(async () => (await admin.query(terminate, [pid, 'PgSleep'])).rowCount).toBe(1);
    await running;
  });
  failures.afterTermination = await failureOf(() => ended.query('select 1'));

  const proxy = await startTcpProxy(Number(new URL(url).port));
  const behindProxy = await clientOf(Object.assign(new URL(url), { port: String(proxy.port) }).href);
  failures.reset = await failureOf(async () => {
    const running = behindProxy.query('select pg_sleep(30)');
    await proxy.down();
    await running;
  });
  await proxy.close();

  const busy = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 100 });
  const holder = await busy.connect();
  failures.poolExhausted = await failureOf(() => busy.query('select 1'));
  holder.release();
  await busy.end();

  const slow = await clientOf(url, { statement_timeout: 50 });
  failures.statementTimeout = await failureOf(() => slow.query('select pg_sleep(1)'));
  await slow.end();
  const waiting = await clientOf(url, { lock_timeout: 50 } as pg.ClientConfig);
  await admin.query('create table locked (id int)');
  await admin.query('begin');
  await admin.query('lock table locked in access exclusive mode');
  failures.lockTimeout = await failureOf(() => waiting.query('select * from locked'));
  await admin.query('rollback');
  await waiting.end();
  await admin.end();

  for (const [fault, error] of Object.entries(failures)) {
    expect({ fault, answer: answerTo(error) }).toEqual({ fault, answer: 'core_unavailable' });
    expect({ fault, answer: answerTo(asDrizzleThrowsIt(error)) }).toEqual({ fault, answer: 'core_unavailable' });
  }
});

it('answers 503 to SQLite busy past its timeout, while another process holds the file locked', async () => {
  const file = join(tempDir(), 'svc.db');
  const holder = new Database(file);
  holder.pragma('journal_mode = WAL');
  holder.exec('create table t (id integer); begin immediate');
  const writer = new Database(file, { timeout: 10 });
  const busy = await failureOf(async () => writer.exec('insert into t values (1)'));
  holder.exec('rollback');
  holder.close();
  writer.close();
  expect(answerTo(busy)).toBe('core_unavailable');
});

it('answers 500 to a fault of ours: a statement the database refuses, or a bug', async () => {
  const client = await clientOf(await createPostgresDatabase());
  await client.query('create table once (id int primary key)');
  await client.query('insert into once values (1)');
  const faults = [
    await failureOf(() => client.query('insert into once values (1)')),
    await failureOf(() => client.query('selec 1')),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    Object.assign(new Error('write EPIPE as a message only'), { code: 'ERR_SOMETHING' }),
  ];
  await client.end();
  for (const fault of faults) expect(answerTo(asDrizzleThrowsIt(fault))).toBe('internal_error');
});
