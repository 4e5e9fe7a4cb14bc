import { runMain } from '@svc/server-kit';
import { startGateway } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('gateway', async (log) => {
  const env = readEnv();
  const gateway = await startGateway({ ...env, log });
  log.info({ url: gateway.url, cores: env.coreUrls }, 'gateway listening');
  return gateway.stop;
});
