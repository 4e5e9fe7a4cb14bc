import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it, vi } from 'vitest';
import { acmeWithFlags, digestCores } from './digest-world.ts';

let cores: ReturnType<typeof digestCores>;
afterEach(async () => {
  await cores.stopAll();
  vi.useRealTimers();
});

const queuedSubjects = (dataDir: string) => {
  const db = new Database(join(dataDir, 'svc.db'), { readonly: true });
  const subjects = db.prepare('select subject from mail_outbox').pluck().all();
  db.close();
  return subjects;
};

it('a core running at 08:00 in Santiago queues the day’s mail then, and not before', async () => {
  // node-cron's timer and the clock move with the test; I/O and the store's commits run as they do.
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: new Date('2026-09-06T10:59:00.000Z') }); // 07:59
  cores = digestCores('smtp://svc:secret@127.0.0.1:9', { delivery: { pollMs: 3_600_000, backoffBaseMs: 1000, maxBackoffMs: 30_000 } });
  cores.useSystemClock();
  const core = await cores.start();
  await acmeWithFlags(core.services, ['Greet by name.']);
  await core.services.dailyDigest.idle();
  expect(queuedSubjects(cores.dataDir)).toEqual([]);

  await vi.advanceTimersByTimeAsync(30_000); // 07:59:30
  await core.services.dailyDigest.idle();
  expect(queuedSubjects(cores.dataDir)).toEqual([]);

  await vi.advanceTimersByTimeAsync(31_000); // 08:00:01, the first day of summer time: 11:00 UTC
  await vi.waitFor(() => expect(queuedSubjects(cores.dataDir)).toEqual(['1 new flagged reply in acme', '1 new flagged reply in acme']), {
    timeout: 30_000,
  });
});
