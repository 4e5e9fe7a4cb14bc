import { runMain } from '@svc/server-kit';
import { startCore } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('core', async (log) => {
  const env = readEnv();
  const core = await startCore({ ...env, log });
  log.info({ url: core.url, dataDir: env.dataDir, localMode: env.config.localMode }, 'core listening');
  return core.stop;
});
