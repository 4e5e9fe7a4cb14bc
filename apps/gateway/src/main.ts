import { runMain, serveMetrics } from '@svc/server-kit';
import { startGateway } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('gateway', async (log) => {
  const env = readEnv();
  const gateway = await startGateway({ ...env, log });
  log.info({ url: gateway.url, cores: env.coreUrls }, 'gateway listening');
  const metrics = env.metrics && (await serveMetrics(gateway.registry, env.metrics));
  if (metrics) log.info({ url: metrics.url }, 'metrics served');
  return async () => {
    await metrics?.stop();
    await gateway.stop();
  };
});
