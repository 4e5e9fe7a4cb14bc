import { bindMetrics, runMain } from '@svc/server-kit';
import { startGateway } from './bootstrap.ts';
import { readEnv } from './env.ts';

await runMain('gateway', async (log) => {
  const env = readEnv();
  // Its ports before its work: a port that is taken fails the start before the gateway connects to core.
  const metrics = env.metrics && (await bindMetrics(env.metrics));
  const gateway = await startGateway({ ...env, log });
  log.info({ url: gateway.url, cores: env.coreUrls }, 'gateway listening');
  if (metrics) {
    metrics.serve(gateway.registry);
    log.info({ url: metrics.url }, 'metrics served');
  }
  return async () => {
    await metrics?.stop();
    await gateway.stop();
  };
});
