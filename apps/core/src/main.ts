import { runMain, serveMetrics } from '@svc/server-kit';
import { startCore } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('core', async (log) => {
  const env = readEnv();
  const core = await startCore({ ...env, log });
  // The database URL may hold a password: only which store is named.
  const store = env.database ? 'postgres' : `sqlite in ${env.dataDir}`;
  log.info({ url: core.url, store, localMode: env.config.localMode }, 'core listening');
  const metrics = env.metrics && (await serveMetrics(core.services.metrics.registry, env.metrics));
  if (metrics) log.info({ url: metrics.url }, 'metrics served');
  return async () => {
    await metrics?.stop();
    await core.stop();
  };
});
