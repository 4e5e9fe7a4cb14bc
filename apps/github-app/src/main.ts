import { closeServer, listen, runMain } from '@svc/server-kit';
import { readEnv } from './env.ts';
import { createGithubAppServer, webhooksPath } from './server.ts';

await runMain('github-app', async (log) => {
  const env = readEnv();
  const server = await createGithubAppServer(env, log);
  const port = await listen(server, env.port, undefined, 'GITHUB_APP_PORT');
  log.info({ port, webhooks: webhooksPath, api: env.baseUrl }, 'GitHub App listening');
  return () => closeServer(server);
});
