import { setTimeout as sleep } from 'node:timers/promises';
import { type Backoff, backoffMs } from '@svc/server-kit';
import pg from 'pg';
import { ChangeListeners, type Changes, type ChangeTopic } from '../changes.ts';

/** The channel every core listens on; a notification's payload is `<topic>:<key>`. */
const channel = 'svc_changes';
const topics: ReadonlySet<string> = new Set<ChangeTopic>(['developer-tokens', 'senders', 'test-numbers', 'memberships']);
const publishAttempts = 3;

export interface PostgresChangesOptions {
  /** The first wait before listening again after the connection was lost; it doubles at each failure. */
  retryMs?: number;
  /** The longest wait between attempts to listen again. */
  maxRetryMs?: number;
  /** How long opening a connection may take, as for the store's own (SVC_DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /**
   * How often the listening connection must answer a query, and how long it has: a server that stopped answering
   * (hung, or behind a network that drops packets) hears no change and sends no notification, without closing the
   * connection. The feed counts it lost then.
   */
  heartbeatMs?: number;
}

/**
 * The change feed of the PostgreSQL store: a change is sent to every core with `pg_notify`, and each core hears them
 * on one connection of its own that LISTENs. When that connection is lost the feed resets every topic and stops
 * being live (caches keep nothing), tries again with a growing wait, and resets once more when it listens again:
 * the changes made meanwhile were not heard, so no cache keeps anything from before.
 */
export async function createPostgresChanges(
  url: string,
  { retryMs = 100, maxRetryMs = 5_000, connectTimeoutMs = 5_000, heartbeatMs = 5_000 }: PostgresChangesOptions = {},
): Promise<Changes> {
  // Without jitter: a core retries its one connection, too few to need spreading.
  const retryBackoff: Backoff = { baseMs: retryMs, maxMs: maxRetryMs, jitter: [1, 1] };
  const listeners = new ChangeListeners();
  const publisher = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: connectTimeoutMs });
  // A publishing connection the server drops while idle is replaced on the next query; it must not end core.
  publisher.on('error', () => {});
  let listening: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  function heard({ channel: from, payload }: pg.Notification): void {
    const colon = payload?.indexOf(':') ?? -1;
    if (from !== channel || colon < 0) return;
    const topic = payload!.slice(0, colon);
    if (topics.has(topic)) listeners.changed(topic as ChangeTopic, payload!.slice(colon + 1));
  }

  async function listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: connectTimeoutMs,
      // Its queries (the LISTEN, the heartbeat's) fail unanswered after this long.
      query_timeout: heartbeatMs,
    });
    // Only while it is the feed's connection: one counted lost may still deliver what it had before it closes.
    client.on('notification', (notification) => {
      if (client === listening) heard(notification);
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end();
      return;
    }
    listening = client;
    failures = 0;
    listeners.reset();
    beat(client);
  }

  /** Asks the listening connection to answer within `heartbeatMs`, every `heartbeatMs`; it is lost when it does not. */
  function beat(client: pg.Client): void {
    heartbeat = setTimeout(() => {
      client.query('select 1').then(
        () => {
          if (client === listening) beat(client);
        },
        () => lost(client),
      );
    }, heartbeatMs);
  }

  function lost(client: pg.Client): void {
    if (client !== listening) return;
    listening = undefined;
    clearTimeout(heartbeat);
    listeners.reset();
    // With the heartbeat's query unanswered, ending destroys the socket: no goodbye waits on a silent server.
    client.end().catch(() => {});
    listenLater();
  }

  function listenLater(): void {
    if (closed) return;
    const wait = backoffMs(++failures, retryBackoff);
    retry = setTimeout(() => {
      retry = undefined;
      listen().catch(listenLater);
    }, wait);
  }

  try {
    await listen();
  } catch (error) {
    await publisher.end();
    throw error;
  }
  return {
    get live() {
      return listening !== undefined;
    },
    async publish(topic, key) {
      listeners.changed(topic, key);
      for (let attempt = 1; attempt <= publishAttempts && !closed; attempt++) {
        try {
          await publisher.query('select pg_notify($1, $2)', [channel, `${topic}:${key}`]);
          return;
        } catch {
          if (attempt < publishAttempts) await sleep(backoffMs(attempt, retryBackoff));
        }
      }
    },
    subscribe: (topic, listener) => listeners.subscribe(topic, listener),
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(heartbeat);
      listeners.clear();
      const client = listening;
      listening = undefined;
      await Promise.all([client?.end(), publisher.end()]);
    },
  };
}
