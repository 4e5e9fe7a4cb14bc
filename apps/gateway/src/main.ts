import { createLogger, runMain } from '@svc/server-kit';
import { startGateway } from './bootstrap.ts';
import { readEnv } from './env.ts';

const log = createLogger('gateway');

await runMain(log, async () => {
  const env = readEnv();
  const gateway = await startGateway({ ...env, log });
  log.info({ url: gateway.url, core: env.coreUrl }, 'gateway listening');
  return gateway.stop;
});
