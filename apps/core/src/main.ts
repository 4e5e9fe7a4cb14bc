import { createLogger, runMain } from '@svc/server-kit';
import { startCore } from './bootstrap.ts';
import { readEnv } from './env.ts';

const log = createLogger('core');

await runMain(log, async () => {
  const env = readEnv();
  const core = await startCore({ ...env, log });
  log.info({ url: core.url, dataDir: env.dataDir, localMode: env.config.localMode }, 'core listening');
  return core.stop;
});
