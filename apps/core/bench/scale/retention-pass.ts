import { join } from 'node:path';
import { createLogger } from '@svc/server-kit';
import { defaultConfig } from '../../src/platform/config.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createIdempotency } from '../../src/verification/idempotency.ts';
import { createRetention } from '../../src/retention.ts';
import { createPostgresStore } from '../../src/postgres-store.ts';
import { createSqliteStore } from '../../src/sqlite-store.ts';
import type { BenchStore } from './stores.ts';

export interface RetentionTimes {
  /** The first pass on the database core just left: its pages may be in the cache, its statements are not prepared. */
  first: number;
  /** The median of the passes after it. */
  median: number;
  /** Rows the passes deleted: none, on a workspace whose copies are all inside their retention times. */
  deleted: number;
}

/** Core's retention job, its pass run `passes` times in this process on the store's database, with core stopped. */
export async function timeRetention(store: BenchStore, passes = 3): Promise<RetentionTimes> {
  const opened = store.database
    ? await createPostgresStore(store.database.url, store.database)
    : createSqliteStore(join(store.dataDir, 'svc.db'));
  const log = createLogger('core', { LOG_LEVEL: 'silent' });
  const retention = createRetention({
    store: opened,
    idempotency: createIdempotency(opened, systemClock),
    config: defaultConfig,
    clock: systemClock,
    log,
  });
  const times: number[] = [];
  let deleted = 0;
  try {
    for (let pass = 0; pass <= passes; pass++) {
      const started = performance.now();
      const purged = await retention.run();
      times.push(performance.now() - started);
      deleted += Object.values(purged).reduce((sum, n) => sum + n, 0);
    }
  } finally {
    await opened.close();
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  return { first: times[0]!, median: rest[Math.floor(rest.length / 2)]!, deleted };
}
