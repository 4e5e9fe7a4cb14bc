import { type JsonResponse, request, type RequestOptions } from '@svc/testkit';
import { expect } from 'vitest';
import { createUserWithToken, type TestPlatform } from '../../testing/platform.ts';

export interface ReplayWorld {
  /** A request to `/api/developer/v1/<slug><path>` as the workspace's owner. */
  api(path: string, init?: RequestOptions): Promise<JsonResponse>;
  /** Adds a case by hand; its id. */
  addCase(agent: string, turns: string[], expected: string): Promise<string>;
  /** Starts a run (202) and answers it as started. */
  startRun(input?: Record<string, unknown>): Promise<JsonResponse>;
  /** Polls a run until it is finished; its detail. */
  finished(runId: string, timeoutMs?: number): Promise<JsonResponse['body']>;
  slug: string;
}

/** Agent files of `slug` for a repository: `model` and, for scripted agents, the rest of agent.yaml. */
export const agentFiles = (slug: string, yaml: string): Record<string, string> => ({
  [`agents/${slug}/agent.yaml`]: `name: ${slug}\n${yaml}`,
  [`agents/${slug}/instructions.md`]: `You are ${slug}.`,
});

/** A workspace owned by `owner@<slug>.example` with `files` deployed to preview and published to live. */
export async function replayWorld(platform: TestPlatform, slug: string, files: Record<string, string>): Promise<ReplayWorld> {
  const token = await createUserWithToken(platform, `owner@${slug}.example`);
  const call = (path: string, init: RequestOptions = {}) => request(`${platform.url}${path}`, { token, ...init });
  expect((await call('/cli/workspaces', { json: { slug } })).status).toBe(201);
  const deployed = await call(`/api/developer/v1/${slug}/deployments`, {
    json: { environment: 'preview', files: { 'svc.yaml': `workspace: ${slug}\n`, ...files } },
  });
  expect(deployed.status).toBe(201);
  expect((await call(`/api/developer/v1/${slug}/publish`, { json: {} })).status).toBe(200);
  const api = (path: string, init: RequestOptions = {}) => call(`/api/developer/v1/${slug}${path}`, init);
  return {
    slug,
    api,
    async addCase(agent, turns, expected) {
      const created = await api('/evals/cases', { json: { agent, turns, expected } });
      expect(created.status).toBe(201);
      return created.body.id as string;
    },
    async startRun(input = {}) {
      const started = await api('/evals/runs', { json: input });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      return started;
    },
    async finished(runId, timeoutMs = 20_000) {
      let run: JsonResponse['body'];
      await expect
        .poll(
          async () => {
            run = (await api(`/evals/runs/${runId}`)).body;
            return run.finished;
          },
          { timeout: timeoutMs, interval: 50 },
        )
        .toBe(true);
      return run;
    },
  };
}
