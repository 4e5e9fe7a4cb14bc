import { runMain, serveMetrics } from '@svc/server-kit';
import { readEnv } from './env.ts';
import { startRunner } from './runner.ts';

await runMain('eval-runner', async (log) => {
  const env = readEnv();
  const runner = startRunner({ ...env, log });
  log.info({ cores: env.coreUrls, concurrency: env.concurrency }, 'eval runner started');
  const metrics = env.metrics && (await serveMetrics(runner.registry, env.metrics));
  if (metrics) log.info({ url: metrics.url }, 'metrics served');
  return async () => {
    await metrics?.stop();
    await runner.stop();
  };
});
