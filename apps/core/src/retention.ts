import type { Logger } from '@svc/server-kit';
import type { CoreConfig } from './platform/config.ts';
import type { Store } from './store.ts';
import type { Clock } from './platform/clock.ts';
import { dayIn } from './digest/schedule.ts';
import type { Idempotency } from './verification/idempotency.ts';

/** Rows one purge write deletes at most: a long backlog goes in many short writes. */
const batch = 500;
const hourMs = 3_600_000;

/** Deletes in batches until a batch comes back short, and answers how many in all. */
async function drain(purge: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await purge(batch);
    total += deleted;
    if (deleted < batch) return total;
  }
}

/**
 * The retention job: deletes what has served its purpose, at the ages of `config.retention`. It runs on an interval
 * (at start, then every `intervalMs`) rather than on a cron schedule: no time of day matters to it, and a core that
 * was down catches up the moment it starts. Every purge is one condition on the store, so cores running it at once
 * only delete the same rows twice over.
 */
export function createRetention(options: { store: Store; idempotency: Idempotency; config: CoreConfig; clock: Clock; log: Logger }) {
  const { store, idempotency, config, clock, log } = options;
  const { retention } = config;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  /** One pass over every table; answers how many rows each lost. */
  async function run(): Promise<Record<string, number>> {
    const now = clock().getTime();
    const ago = (ms: number) => new Date(now - ms).toISOString();
    const purged = {
      device_authorizations: await drain((n) => store.deviceAuthorizations.purgeExpired(ago(retention.afterExpiryMs), n)),
      login_links: await drain((n) => store.loginLinks.purgeExpired(ago(retention.afterExpiryMs), n)),
      sessions: await drain((n) => store.sessions.purgeExpired(ago(0), n)),
      idempotency_keys: await drain((n) => store.idempotency.purge(idempotency.expiredBefore(), n)),
      message_outbox: await drain((n) => store.outbox.purgeFinished(ago(retention.finishedDeliveriesMs), n)),
      mail_outbox: await drain((n) => store.mails.purgeFinished(ago(retention.finishedDeliveriesMs), n)),
      github_deliveries: await drain((n) => store.githubDeliveries.purge(ago(retention.finishedDeliveriesMs), n)),
      // The hourly cap reads only the current hour's count.
      hourly_sends: await drain((n) => store.outbox.purgeHourlyCounts(ago(2 * hourMs), n)),
      dev_messages: await store.devMessages.keepNewest(retention.devItemsKept),
      dev_mails: await store.devMails.keepNewest(retention.devItemsKept),
      digest_days: await drain((n) =>
        store.digestDays.purgeBefore(dayIn(new Date(now - retention.digestDaysMs), config.digest.timeZone), n),
      ),
    };
    const total = Object.values(purged).reduce((sum, n) => sum + n, 0);
    if (total > 0) log.info({ purged }, 'retention: deleted what is past its retention time');
    return purged;
  }

  function tick(): void {
    if (running) return;
    running = run()
      .catch((error: unknown) => log.error({ err: error }, 'retention job failed'))
      .finally(() => (running = undefined));
  }

  return {
    run,
    start() {
      timer = setInterval(tick, retention.intervalMs);
      timer.unref();
      tick();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

export type Retention = ReturnType<typeof createRetention>;
