import { httpUrl, loadEnv, port } from '@svc/server-kit';
import { z } from 'zod';

const schema = z
  .object({
    GITHUB_APP_ID: z.string().regex(/^\d+$/, 'expected the numeric App ID'),
    GITHUB_PRIVATE_KEY: z.string().min(1, 'expected the App private key (PEM)'),
    GITHUB_WEBHOOK_SECRET: z.string().min(1, 'expected the webhook secret'),
    GITHUB_API_URL: httpUrl.default('https://api.github.com'),
    GITHUB_APP_PORT: port(8082),
  })
  .transform((env) => ({
    appId: env.GITHUB_APP_ID,
    privateKey: env.GITHUB_PRIVATE_KEY.replace(/\\n/g, '\n'),
    secret: env.GITHUB_WEBHOOK_SECRET,
    baseUrl: env.GITHUB_API_URL,
    port: env.GITHUB_APP_PORT,
  }));

export type GithubAppEnv = z.infer<typeof schema>;

export const readEnv = (env: NodeJS.ProcessEnv = process.env): GithubAppEnv => loadEnv(schema, env);
