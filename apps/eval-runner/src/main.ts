import { runMain } from '@svc/server-kit';
import { readEnv } from './env.ts';
import { startRunner } from './runner.ts';

await runMain('eval-runner', async (log) => {
  const env = readEnv();
  const runner = startRunner({ ...env, log });
  log.info({ cores: env.coreUrls, concurrency: env.concurrency }, 'eval runner started');
  return () => runner.stop();
});
