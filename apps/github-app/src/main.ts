import { closeServer, createLogger, listen, runMain } from '@svc/server-kit';
import { readEnv } from './env.ts';
import { createGithubAppServer, webhooksPath } from './server.ts';

const log = createLogger('github-app');

await runMain(log, async () => {
  const env = readEnv();
  const server = await createGithubAppServer(env, log);
  const port = await listen(server, env.port);
  log.info({ port, webhooks: webhooksPath, api: env.baseUrl }, 'GitHub App listening');
  return () => closeServer(server);
});
