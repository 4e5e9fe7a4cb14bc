import { runMain } from '@svc/server-kit';
import { startCore } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('core', async (log) => {
  const env = readEnv();
  const core = await startCore({ ...env, log });
  // The database URL may hold a password: only which store is named.
  const store = env.database ? 'postgres' : `sqlite in ${env.dataDir}`;
  log.info({ url: core.url, store, localMode: env.config.localMode }, 'core listening');
  return core.stop;
});
