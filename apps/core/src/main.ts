import { createLogger, runMain } from '@svc/server-kit';
import { startCore } from './bootstrap.ts';
import { readEnv } from './env.ts';

const log = createLogger('core');

await runMain(log, async () => {
  const env = readEnv();
  const core = await startCore({ dataDir: env.dataDir, port: env.port, host: env.host, localMode: env.localMode, log });
  log.info({ url: core.url, dataDir: env.dataDir }, 'core listening');
  return core.stop;
});
