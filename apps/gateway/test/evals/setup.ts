import { setTimeout as sleep } from 'node:timers/promises';
import type { Role } from '@svc/domain';
import { type JsonResponse, request, type RequestOptions } from '@svc/testkit';
import { expect } from 'vitest';
import { createUserWithToken, type TestPlatform } from '../platform.ts';

/** A scripted sales agent: asked about prices it says `price`, anything else gets `fallback`. */
export function salesAgent(price: string, { slug = 'acme', fallback = 'Hello from sales.' } = {}): Record<string, string> {
  return {
    'svc.yaml': `workspace: ${slug}\n`,
    'agents/sales/agent.yaml': `name: Sales\nmodel: scripted\nscripted:\n  rules:\n    - when: "price"\n      reply: "${price}"\n  fallback: ${fallback}\n`,
    'agents/sales/instructions.md': 'Sell.',
  };
}

/** The files of an agent `slug` whose agent.yaml goes on with `yaml` (its model, tools, scripted rules). */
export const agentFiles = (slug: string, yaml: string): Record<string, string> => ({
  [`agents/${slug}/agent.yaml`]: `name: ${slug}\n${yaml}`,
  [`agents/${slug}/instructions.md`]: `You are ${slug}.`,
});

export interface EvalsApi {
  slug: string;
  token: string;
  /** A request below `/api/developer/v1/<slug>/evals` as the owner (or with `token`). */
  evals(path: string, init?: RequestOptions): Promise<JsonResponse>;
  /** A request below `/api/developer/v1/<slug>` as the owner. */
  api(path: string, init?: RequestOptions): Promise<JsonResponse>;
  /** Deploys these files to the environment. */
  deploy(environment: string, files: Record<string, string>): Promise<void>;
  /** Adds a case by hand for the sales agent; its id. */
  addCase(turns: string[], expected: string, agent?: string): Promise<string>;
  /** Starts a run (202): the run as it started. */
  start(body?: Record<string, unknown>): Promise<JsonResponse['body']>;
  /** Starts a run; answers the run once it is finished (polled: the runner finishes it). */
  run(body?: Record<string, unknown>): Promise<JsonResponse>;
  /** The run's detail once it is finished. */
  finished(runId: string): Promise<JsonResponse>;
  /** A token of a new member with this role. */
  member(role: Role): Promise<string>;
  /** A visitor's message to the sales agent on live, in a new chat: the chat and the agent's reply. */
  say(text: string): Promise<{ chatId: string; replyId: string }>;
}

/** A workspace owned by `owner@<slug>.example`, with nothing deployed. */
export async function evalsWorkspace(platform: TestPlatform, slug: string): Promise<EvalsApi> {
  const token = await createUserWithToken(platform, `owner@${slug}.example`);
  const call = (path: string, init: RequestOptions = {}) => request(`${platform.url}${path}`, { token, ...init });
  expect((await call('/cli/workspaces', { json: { slug } })).status).toBe(201);
  const api = (path: string, init: RequestOptions = {}) => call(`/api/developer/v1/${slug}${path}`, init);
  const evals = (path: string, init: RequestOptions = {}) => api(`/evals${path}`, init);

  async function finished(runId: string): Promise<JsonResponse> {
    for (;;) {
      const run = await evals(`/runs/${runId}`);
      expect(run.status).toBe(200);
      if (run.body.finished) return run;
      await sleep(25);
    }
  }

  async function start(body: Record<string, unknown> = {}) {
    const started = await evals('/runs', { json: body });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    return started.body;
  }

  return {
    slug,
    token,
    api,
    evals,
    async deploy(environment, files) {
      expect((await api('/deployments', { json: { environment, files } })).status).toBe(201);
    },
    async addCase(turns, expected, agent = 'sales') {
      const created = await evals('/cases', { json: { agent, turns, expected } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    },
    start,
    async run(body = {}) {
      return finished((await start(body)).id);
    },
    finished,
    async say(text) {
      const chat = await call(`/api/v1/${slug}/chats`, { json: { agent: 'sales' } });
      const sent = await call(`/api/v1/${slug}/chats/${chat.body.chat_id}/messages`, { json: { text } });
      expect(sent.status).toBe(201);
      return { chatId: chat.body.chat_id, replyId: sent.body.message_id };
    },
    async member(role) {
      const email = `${role}@${slug}.example`;
      const memberToken = await createUserWithToken(platform, email);
      const { store, identity } = platform.core.services;
      const user = await identity.findOrCreateUser(email);
      await store.workspaces.addMember((await store.workspaces.findBySlug(slug))!.id, user.id, role, new Date().toISOString());
      return memberToken;
    },
  };
}

/** A workspace as `evalsWorkspace` makes it, with these agents' files deployed to preview. */
export async function deployedWorkspace(platform: TestPlatform, slug: string, files: Record<string, string>): Promise<EvalsApi> {
  const world = await evalsWorkspace(platform, slug);
  await world.deploy('preview', { 'svc.yaml': `workspace: ${slug}\n`, ...files });
  return world;
}

type Store = TestPlatform['core']['services']['store'];

/** The runner's part, played on core's store: every execution leased and reported passed, the run not finished. */
export async function reportAll(store: Store): Promise<void> {
  const now = new Date();
  const leased = await store.evalWork.lease('runner_test', 100, now.toISOString(), new Date(now.getTime() + 60_000).toISOString());
  for (const execution of leased) {
    const outcome = await store.evalWork.report({
      executionId: execution.id,
      leaseId: execution.leaseId!,
      verdict: 'pass',
      reasoning: 'It says "12 USD".',
      tokens: { input: 0, output: 0 },
      judgeTokens: { input: 0, output: 0 },
      replay: null,
      at: new Date().toISOString(),
    });
    expect(outcome.accepted).toBe(true);
  }
}

/**
 * A workspace with one flag on a reply of version 1, and version 2, which answers as the flag's note asks, published
 * to live: its publish started a run of the flag's case there.
 */
export async function flaggedLiveRun(platform: TestPlatform, slug: string): Promise<{ ws: EvalsApi; flagId: string; runId: string }> {
  const ws = await evalsWorkspace(platform, slug);
  await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug }));
  expect((await ws.api('/publish', { json: {} })).body.eval_run_id).toBeNull();
  const { replyId } = await ws.say('what is the price?');
  const flag = await ws.api('/flags', { json: { message_id: replyId, note: 'Say "12 USD".' } });
  expect(flag.status).toBe(201);
  await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug, fallback: 'Hello from sales, v2.' }));
  const published = await ws.api('/publish', { json: {} });
  expect(published.body).toMatchObject({ version: { number: 2 }, eval_run_id: expect.any(String) });
  return { ws, flagId: flag.body.id, runId: published.body.eval_run_id };
}
