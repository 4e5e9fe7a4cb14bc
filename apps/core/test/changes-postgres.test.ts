import { createPostgresDatabase, dropPostgresDatabases, startTcpProxy } from '@svc/testkit';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { ChangeCache } from '../src/platform/change-cache.ts';
import type { Changes } from '../src/platform/changes.ts';
import { createPostgresChanges } from '../src/platform/postgres/changes.ts';

/** Two cores' change feeds on one database, each with its own listening connection. */
let url: string;
let feeds: Changes[];
beforeEach(async () => {
  url = await createPostgresDatabase();
  feeds = [await createPostgresChanges(url, { retryMs: 10 }), await createPostgresChanges(url, { retryMs: 10 })];
});
afterEach(() => Promise.all(feeds.map((feed) => feed.close())));
afterAll(dropPostgresDatabases);

/** Ends the listening connection that connected last, as a network failure or a server restart would. */
async function dropNewestListener(): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'listen svc_changes' order by backend_start desc limit 1",
    );
  } finally {
    await admin.end();
  }
}

/** What a listener heard: keys, and `reset` for a reset. */
function hear(feed: Changes, topic: Parameters<Changes['subscribe']>[0]): string[] {
  const heard: string[] = [];
  feed.subscribe(topic, (key) => heard.push(key ?? 'reset'));
  return heard;
}

it("tells a change to every core's listeners of its topic, the publishing core's before publish returns", async () => {
  const [senders, testNumbers, ownSenders] = [hear(feeds[1]!, 'senders'), hear(feeds[1]!, 'test-numbers'), hear(feeds[0]!, 'senders')];
  await feeds[0]!.publish('senders', 'ws_1');
  expect(ownSenders[0]).toBe('ws_1');
  await feeds[0]!.publish('test-numbers', 'ws:2');
  await expect.poll(() => testNumbers).toEqual(['ws:2']);
  expect(senders).toEqual(['ws_1']); // notifications arrive in commit order: this one came before
});

it('resets every topic when its listening connection is lost, and again once it listens again, then hears changes again', async () => {
  const tokens = hear(feeds[1]!, 'developer-tokens');
  await dropNewestListener(); // the second feed's: it connected last
  await expect.poll(() => tokens).toEqual(['reset', 'reset']);
  expect(feeds[1]!.live).toBe(true);
  await feeds[0]!.publish('developer-tokens', 'tok_1');
  await expect.poll(() => tokens).toEqual(['reset', 'reset', 'tok_1']);
});

it('keeps nothing in a cache while its feed is not listening', async () => {
  const feed = await createPostgresChanges(url, { retryMs: 60_000 });
  feeds.push(feed);
  const cache = new ChangeCache<string>({ changes: feed, topic: 'senders', ttlMs: 60_000, maxEntries: 10 });
  let loads = 0;
  const load = async () => `sender ${++loads}`;
  expect(await cache.get('ws_1', load)).toBe('sender 1');
  expect(await cache.get('ws_1', load)).toBe('sender 1');
  await dropNewestListener();
  await expect.poll(() => feed.live).toBe(false);
  expect(await cache.get('ws_1', load)).toBe('sender 2');
  expect(await cache.get('ws_1', load)).toBe('sender 3');
});

it('counts its connection lost when the server stops answering, and listens again once it answers', async () => {
  // The feed reaches the database through a proxy that can hang, as a stopped server does: connections stay open, silent.
  const proxy = await startTcpProxy(Number(new URL(url).port));
  try {
    const through = Object.assign(new URL(url), { port: String(proxy.port) }).href;
    const feed = await createPostgresChanges(through, { retryMs: 10, heartbeatMs: 1000 });
    feeds.push(feed);
    const senders = hear(feed, 'senders');
    proxy.hang();
    await expect.poll(() => feed.live).toBe(false);
    expect(senders).toEqual(['reset']);
    proxy.resume();
    // Listening again, it resets once more (more often if a busy box made a heartbeat late), then hears changes.
    await expect
      .poll(async () => {
        await feeds[0]!.publish('senders', 'ws_1');
        return senders.includes('ws_1');
      })
      .toBe(true);
    expect(senders.indexOf('ws_1')).toBeGreaterThan(1);
    expect(senders.slice(0, senders.indexOf('ws_1'))).toEqual(senders.slice(0, senders.indexOf('ws_1')).map(() => 'reset'));
  } finally {
    await proxy.close();
  }
});
