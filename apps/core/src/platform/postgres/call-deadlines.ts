import { connect as connectSocket } from 'node:net';
import pg from 'pg';
import { type CallBudget, currentBudget, DatabaseDeadlinePassed } from '../call-budget.ts';

/** How long a cancel request may take: the server takes one at once, or is out of reach and cancels nothing anyway. */
const cancelWaitMs = 1_000;

/** PostgreSQL's CancelRequest code (1234 in the high 16 bits, 5678 in the low). */
const cancelRequestCode = 80_877_102;

/** What node-postgres keeps of a session, which a cancel request names. */
interface Session {
  host: string;
  port: number;
  processID: number | null;
  secretKey: number | null;
}

/**
 * Asks the server to cancel what `client`'s session runs, as psql's Ctrl-C does: a cancel request on a connection of its
 * own. Resolves once the server closed that connection, having signalled the session: a cancel that comes after the
 * statement ended is dropped by the session while it waits for the next one, so the connection can serve again.
 */
function cancelRunning(client: pg.Client): Promise<void> {
  const { host, port, processID, secretKey } = client as unknown as Session;
  if (processID === null || secretKey === null) return Promise.resolve();
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(cancelRequestCode, 4);
  request.writeInt32BE(processID, 8);
  request.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? connectSocket(`${host}/.s.PGSQL.${port}`) : connectSocket(port, host);
    socket.setTimeout(cancelWaitMs, () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.end(request);
  });
}

type Callback = (error: Error | undefined, result?: unknown) => void;

/** node-postgres's own `query`, looked up at each statement as a subclass's `super.query` would be. */
const clientQuery = (client: pg.Client, args: unknown[]): unknown =>
  (pg.Client.prototype.query as (...all: unknown[]) => unknown).apply(client, args);

/**
 * Runs one of `client`'s statements within the call's `budget`: counted as the call's time, refused when none is left,
 * and cancelled when the budget runs out before PostgreSQL's own statement timeout would cancel it. A statement the
 * budget cancelled fails as `DatabaseDeadlinePassed`.
 */
function queryWithin(budget: CallBudget, client: pg.Client, args: unknown[], statementTimeoutMs: number) {
  const callback = typeof args.at(-1) === 'function' ? (args.pop() as Callback) : undefined;
  const wait = budget.deadline() - performance.now();
  if (wait <= 0) {
    const spent = new DatabaseDeadlinePassed();
    if (!callback) return Promise.reject(spent);
    process.nextTick(callback, spent);
    return undefined;
  }
  const leave = budget.enter();
  let cancelled: Promise<void> | undefined;
  const timer = wait < statementTimeoutMs ? setTimeout(() => (cancelled = cancelRunning(client)), wait) : undefined;
  // A cancel under way ends before the connection serves again, or the caller (or the next) goes on.
  const finish = (error?: unknown) => {
    clearTimeout(timer);
    leave();
    return cancelled && error ? new DatabaseDeadlinePassed({ cause: error }) : error;
  };
  if (callback) {
    clientQuery(client, [
      ...args,
      (error: Error | undefined, result: unknown) => {
        if (cancelled) void cancelled.then(() => callback(finish(error) as Error | undefined, result));
        else callback(finish(error) as Error | undefined, result);
      },
    ]);
    return undefined;
  }
  return (clientQuery(client, args) as Promise<unknown>).then(
    (result) => (cancelled ? cancelled.then(() => (finish(), result)) : (finish(), result)),
    (error: unknown) => {
      if (cancelled) return cancelled.then(() => Promise.reject(finish(error)));
      throw finish(error);
    },
  );
}

/** Whether a statement needs no budget: a submittable (a cursor, a stream; none is used), or a rollback. */
function unbudgeted(config: unknown): boolean {
  if (typeof (config as { submit?: unknown } | undefined)?.submit === 'function') return true;
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
  // A rollback waits for no lock, and one not sent would hand the pool a connection in a failed transaction.
  return typeof text === 'string' && /^\s*rollback\b/i.test(text);
}

/** A client whose statements run within the budget of the call that makes them, if any. */
function budgetedClient(statementTimeoutMs: number): typeof pg.Client {
  class BudgetedClient extends pg.Client {}
  BudgetedClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const budget = currentBudget();
    if (!budget || unbudgeted(args[0])) return clientQuery(this, args);
    return queryWithin(budget, this, args, statementTimeoutMs);
  } as typeof pg.Client.prototype.query;
  return BudgetedClient;
}

/** A call's wait for one of `pool`'s connections: counted, and ended when the call's time runs out. */
function connectWithin(budget: CallBudget, connect: () => Promise<pg.PoolClient>, connectTimeoutMs: number): Promise<pg.PoolClient> {
  const wait = budget.deadline() - performance.now();
  if (wait <= 0) return Promise.reject(new DatabaseDeadlinePassed());
  const leave = budget.enter();
  const connecting = connect();
  if (wait >= connectTimeoutMs) return connecting.finally(leave);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      leave();
      reject(new DatabaseDeadlinePassed());
      // The connection comes too late for this call: back to the pool for the next.
      connecting.then(
        (client) => client.release(),
        () => {},
      );
    }, wait);
    connecting.then(
      (client) => (clearTimeout(timer), leave(), resolve(client)),
      (error: unknown) => (clearTimeout(timer), leave(), reject(error)),
    );
  });
}

export interface BudgetOptions {
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/**
 * A pool that keeps the database time of each call (`currentBudget()`): its waits for a connection and its statements
 * count, a wait for a connection ends when the call's time does, and a statement still running then is cancelled.
 * Work outside calls (the loops) keeps each statement's own deadline, `statementTimeoutMs`.
 */
export function budgetedPool(config: pg.PoolConfig, { statementTimeoutMs, connectTimeoutMs }: BudgetOptions): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: budgetedClient(statementTimeoutMs) });
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  // pg-pool's `query` asks for a connection with a callback, which it may call from another call's context (the one
  // that handed a connection back): called from a promise made here, it runs in the asking call's own.
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void) => {
    const budget = currentBudget();
    const connected = budget ? connectWithin(budget, connect, connectTimeoutMs) : connect();
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined)),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  }) as typeof pool.connect;
  return pool;
}
