import { createLogger, runMain } from '@svc/server-kit';
import { readEnv } from './env.ts';
import { startRunner } from './runner.ts';

const log = createLogger('eval-runner');

await runMain(log, async () => {
  const env = readEnv();
  const runner = startRunner({ ...env, log });
  log.info({ core: env.coreUrl }, 'eval runner started');
  return () => runner.stop();
});
