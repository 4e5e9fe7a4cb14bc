import { bindMetrics, runMain } from '@svc/server-kit';
import { startCore } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('core', async (log) => {
  const env = readEnv();
  // Its ports before its work: a port that is taken fails the start before core opens its database.
  const metrics = env.metrics && (await bindMetrics(env.metrics));
  const core = await startCore({ ...env, log });
  // The database URL may hold a password: only which store is named.
  const store = env.database ? 'postgres' : `sqlite in ${env.dataDir}`;
  log.info({ url: core.url, store, localMode: env.config.localMode }, 'core listening');
  if (metrics) {
    metrics.serve(core.services.metrics.registry);
    log.info({ url: metrics.url }, 'metrics served');
  }
  return async () => {
    await metrics?.stop();
    await core.stop();
  };
});
