import { closeServer, listen, runMain, serveMetrics } from '@svc/server-kit';
import { readEnv } from './env.ts';
import { createGithubApp, webhooksPath } from './server.ts';

await runMain('github-app', async (log) => {
  const env = readEnv();
  const app = await createGithubApp({ ...env, log });
  const port = await listen(app.server, env.port, env.host, 'GITHUB_APP_PORT');
  log.info(
    { host: env.host ?? 'every interface', port, webhooks: webhooksPath, api: env.baseUrl, cores: env.coreUrls },
    'GitHub App listening',
  );
  const metrics = env.metrics && (await serveMetrics(app.registry, env.metrics));
  if (metrics) log.info({ url: metrics.url }, 'metrics served');
  return async () => {
    await metrics?.stop();
    await closeServer(app.server);
    await app.stop();
  };
});
