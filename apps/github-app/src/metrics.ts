import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpRequestDurations } from '@svc/server-kit';
import type { ProbotOctokit } from 'probot';
import { Counter, Gauge, Registry } from 'prom-client';

type Octokit = InstanceType<typeof ProbotOctokit>;
type Headers = Record<string, string | number | undefined>;

/** The GitHub App's metrics: its calls to GitHub's API and the rate limit they leave, and the webhooks it answered. */
export function createGithubAppMetrics(routes: string[]) {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'svc_github_api_requests_total',
    help: "Requests to GitHub's API (after Octokit's retries), by method and status",
    labelNames: ['method', 'status'],
    registers,
  });
  const remaining = new Gauge({
    name: 'svc_github_rate_limit_remaining',
    help: "Requests left in the rate limit window, as GitHub's last answer said (x-ratelimit-remaining), by resource",
    labelNames: ['resource'],
    registers,
  });
  const observe = httpRequestDurations(registry);

  function answered(method: string, status: number | string, headers: Headers | undefined): void {
    requests.inc({ method, status });
    const left = Number(headers?.['x-ratelimit-remaining']);
    if (headers?.['x-ratelimit-remaining'] !== undefined && Number.isFinite(left))
      remaining.set({ resource: String(headers['x-ratelimit-resource'] ?? 'core') }, left);
  }

  return {
    registry,
    /** An Octokit plugin that counts every request and reads the rate limit off every answer, errors included. */
    octokitPlugin(octokit: Pick<Octokit, 'hook'>): void {
      octokit.hook.wrap('request', async (request, options) => {
        try {
          const response = await request(options);
          answered(options.method, response.status, response.headers as Headers);
          return response;
        } catch (error) {
          const failed = error as { status?: number; response?: { headers?: Headers } };
          answered(options.method, failed.status ?? 'none', failed.response?.headers);
          throw error;
        }
      });
    },
    /** Times a request to the app's own server, labelled with the route it is for when it is one of `routes`. */
    webhookRequest(req: IncomingMessage, res: ServerResponse): void {
      observe(req, res, () => (routes.includes(req.url ?? '') ? req.url! : 'unmatched'));
    },
  };
}

export type GithubAppMetrics = ReturnType<typeof createGithubAppMetrics>;
