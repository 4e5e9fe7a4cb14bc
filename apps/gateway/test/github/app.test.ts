import { DomainError } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCoreChannel, type CoreConnection } from '../../src/core-client.ts';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { type EvalsApi, evalsWorkspace, salesAgent } from '../evals/setup.ts';

// The procedures the GitHub App calls, over core's channel with the internal token as the app does.

const sha = '3f786850e387550fdab836ed7e6dc881de23001b';

/** A workspace `slug` with the sales agent on preview, one case about its price, and `repository` linked. */
async function previewWorkspace(platform: TestPlatform, slug: string, repository: string): Promise<EvalsApi> {
  const ws = await evalsWorkspace(platform, slug);
  await ws.deploy('preview', salesAgent('$10', { slug }));
  await ws.addCase(['what is the price?'], 'says "$10"');
  expect((await ws.api('/github/links', { json: { repository } })).status).toBe(201);
  return ws;
}

const pullRequest = (repository: string, slug: string, changes: Record<string, unknown> = {}) => ({
  repository,
  installation_id: 77,
  pull_number: 12,
  head_sha: sha,
  branch: 'feat/Price-Change',
  // The branch changes the agent's greeting: a version of its own.
  files: salesAgent('$10', { slug, fallback: 'Hi from the branch.' }),
  ...changes,
});

const refusal = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};

describe('with an eval runner', () => {
  let platform: TestPlatform;
  let core: CoreConnection;
  beforeAll(async () => {
    platform = await startPlatform();
    core = connectCoreChannel(platform.core.url, platform.internalToken);
  });
  afterAll(async () => {
    core.close();
    await platform.stop();
  });

  it('a pull request preview deploys the head to the branch environment as the GitHub App, runs the evals and announces the finished run once', async () => {
    const ws = await previewWorkspace(platform, 'shop', 'Shop/Bot');
    const { github } = core.client;
    await github.installations.sync.mutate({ installation_id: 77, added: ['shop/bot'], removed: [] });
    expect(await github.repositories.find.query({ repository: 'SHOP/bot' })).toEqual({
      workspace_slug: 'shop',
      installed: true,
      installation_id: 77,
    });
    expect(await github.repositories.find.query({ repository: 'shop/other' })).toBeNull();

    const deployed = await github.previews.deploy.mutate(pullRequest('Shop/Bot', 'shop'));
    expect(deployed).toMatchObject({ workspace: 'shop', environment: 'feat-price-change', version: { number: 2 } });
    expect(deployed.run_url).toBe(`${platform.url}/w/shop/evals/${deployed.run_id}`);
    const environments = (await ws.api('/environments')).body.environments;
    expect(environments.find((e: { name: string }) => e.name === 'feat-price-change').version).toMatchObject({
      id: deployed.version.id,
      author: 'GitHub App',
      git_commit: sha,
      git_branch: 'feat/Price-Change',
    });
    expect((await ws.evals(`/runs/${deployed.run_id}`)).body).toMatchObject({
      trigger: 'pull_request',
      created_by: 'GitHub App',
      environment: 'feat-price-change',
    });

    // Long-polled: answered when the runner finishes the run.
    const { events } = await github.events.claim.mutate({ consumer: 'app-1', max: 10, wait_ms: 20_000 });
    expect(events).toEqual([expect.objectContaining({ kind: 'run_finished', payload: { run_id: deployed.run_id }, attempts: 1 })]);
    expect((await ws.evals(`/runs/${deployed.run_id}`)).body).toMatchObject({ finished: true, passed: 1 });

    const comment = await github.comment.query({ run_id: deployed.run_id });
    expect(comment).toMatchObject({ repository: 'Shop/Bot', pull_number: 12, installation_id: 77, head_sha: sha });
    expect(comment.markdown.split('\n')[0]).toBe('<!-- svc:pr-preview -->');
    expect(comment.markdown).toContain('feat-price-change');
    expect(comment.markdown).toContain(sha.slice(0, 7));
    expect(comment.markdown).toContain(deployed.run_url);

    expect(await github.events.done.mutate({ id: events[0]!.id, claim_id: events[0]!.claim_id })).toEqual({ done: true });
    expect((await github.events.claim.mutate({ consumer: 'app-1', max: 10, wait_ms: 0 })).events).toEqual([]);
  });

  it('the flags issue holds the digest of the open flags with a note, cut under GitHub’s limit with a link', async () => {
    const ws = await evalsWorkspace(platform, 'flagged');
    await ws.deploy('preview', salesAgent('$10', { slug: 'flagged' }));
    expect((await ws.api('/publish', { json: {} })).status).toBe(200);
    const workspaceId = (await platform.core.services.store.workspaces.findBySlug('flagged'))!.id;
    const issue = () => core.client.github.flagsIssue.query({ workspace_id: workspaceId });
    expect(await issue()).toMatchObject({ title: 'Service flags', open: 0 });

    const flag = async (note: string | undefined) => {
      const { replyId } = await ws.say('hello');
      expect((await ws.api('/flags', { json: { message_id: replyId, note } })).status).toBe(201);
    };
    await flag('Say which products are on sale.');
    await flag(undefined);
    const one = await issue();
    expect(one.open).toBe(1);
    expect(one.body).toContain('Say which products are on sale.');

    for (let i = 0; i < 7; i += 1) await flag(`Note ${i}: ${'long '.repeat(1990)}`);
    const long = await issue();
    expect(long.open).toBe(8);
    expect(long.body.length).toBeLessThanOrEqual(65_536);
    expect(long.body).toContain(`[flags.md](${platform.url}/w/flagged/flags.md)`);
    const unknown = await refusal(core.client.github.flagsIssue.query({ workspace_id: 'ws_unknown' }));
    expect(unknown.code).toBe('workspace_not_found');
  });
});

describe('without an eval runner', () => {
  let platform: TestPlatform;
  let core: CoreConnection;
  let ws: EvalsApi;
  beforeAll(async () => {
    platform = await startPlatform({ evalConcurrency: 0, github: { eventClaimMs: 300 } });
    core = connectCoreChannel(platform.core.url, platform.internalToken);
    ws = await previewWorkspace(platform, 'idle', 'idle/bot');
  });
  afterAll(async () => {
    core.close();
    await platform.stop();
  });
  const claim = (wait_ms = 0, max = 10) => core.client.github.events.claim.mutate({ consumer: 'app', max, wait_ms });

  it('a cancelled preview run is announced as finished; a cancelled run of no pull request is not', async () => {
    const manual = await ws.start({ environment: 'preview' });
    expect((await ws.evals(`/runs/${manual.id}/cancel`, { json: {} })).status).toBe(200);
    expect((await claim()).events).toEqual([]);
    expect((await refusal(core.client.github.comment.query({ run_id: manual.id }))).code).toBe('preview_not_found');

    const preview = await core.client.github.previews.deploy.mutate(pullRequest('idle/bot', 'idle', { pull_number: 3 }));
    expect((await ws.evals(`/runs/${preview.run_id}/cancel`, { json: {} })).status).toBe(200);
    const { events } = await claim();
    expect(events.map((e) => e.payload)).toEqual([{ run_id: preview.run_id }]);
    expect((await core.client.github.comment.query({ run_id: preview.run_id })).pull_number).toBe(3);
    await core.client.github.events.done.mutate({ id: events[0]!.id, claim_id: events[0]!.claim_id });
  });

  it('a deploy that cannot be made answers its error for the app to show', async () => {
    const deploy = (changes: Record<string, unknown>) =>
      refusal(core.client.github.previews.deploy.mutate(pullRequest('idle/bot', 'idle', changes)));
    const manifest = await deploy({ files: { 'svc.yaml': 'workspace: idle\n', 'agents/sales/agent.yaml': 'name: [' } });
    expect(manifest.code).toBe('invalid_manifest');
    expect(manifest.details.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]));
    const mismatch = await deploy({ files: salesAgent('$10', { slug: 'someone-else' }) });
    expect([mismatch.code, mismatch.message]).toEqual(['workspace_mismatch', expect.stringContaining('someone-else')]);
    expect((await deploy({ repository: 'idle/unlinked' })).code).toBe('link_not_found');
    const live = await deploy({ branch: 'Live' });
    expect([live.code, live.field]).toEqual(['invalid_request', 'branch']);
    expect((await deploy({ head_sha: 'not-a-sha' })).code).toBe('invalid_request');

    const bare = await evalsWorkspace(platform, 'bare');
    expect((await bare.api('/github/links', { json: { repository: 'bare/bot' } })).status).toBe(201);
    const none = await refusal(core.client.github.previews.deploy.mutate(pullRequest('bare/bot', 'bare')));
    expect(none.code).toBe('no_eval_cases');
  });

  it('hands a webhook delivery to one app process, however many claim it at once', async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, () => core.client.github.deliveries.claim.mutate({ id: 'dlv-72d3162e' })));
    expect(claims.filter((c) => c.first)).toHaveLength(1);
    expect(await core.client.github.deliveries.claim.mutate({ id: 'dlv-72d3162e' })).toEqual({ first: false });
  });

  it('claims at once never share an event; a waiting claim is answered as soon as an event is enqueued', async () => {
    const { events } = platform.core.services.github;
    for (let i = 0; i < 12; i += 1) await events.enqueue('flags_issue', `idle/repo-${i}`, { repository: `idle/repo-${i}` });
    const batches = await Promise.all(Array.from({ length: 6 }, () => claim(0, 3)));
    const claimed = batches.flatMap((b) => b.events);
    expect(claimed).toHaveLength(12);
    expect(new Set(claimed.map((e) => e.id)).size).toBe(12);
    for (const e of claimed)
      expect(await core.client.github.events.done.mutate({ id: e.id, claim_id: e.claim_id })).toEqual({ done: true });

    const waiting = claim(20_000);
    expect(await events.enqueue('flags_issue', 'idle/late', { repository: 'idle/late' })).toBe(true);
    expect(await events.enqueue('flags_issue', 'idle/late', { repository: 'idle/late' })).toBe(false);
    const [late] = (await waiting).events;
    expect(late?.payload).toEqual({ repository: 'idle/late' });
    await core.client.github.events.done.mutate({ id: late!.id, claim_id: late!.claim_id });
  });

  it('an app killed mid-event leaves it to the next claim once its claim expires; its late done is refused', async () => {
    await platform.core.services.github.events.enqueue('flags_issue', 'idle/killed', {});
    const [first] = (await claim()).events;
    // Answered once the first claim (300 ms) has expired.
    const [second] = (await claim(10_000)).events;
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });
    expect(await core.client.github.events.done.mutate({ id: first!.id, claim_id: first!.claim_id })).toEqual({ done: false });
    expect(await core.client.github.events.done.mutate({ id: second!.id, claim_id: second!.claim_id })).toEqual({ done: true });
  });

  it('a failed event is handed out again only after its backoff, with the error kept', async () => {
    const { github } = platform.core.services;
    await github.events.enqueue('flags_issue', 'idle/failing', {});
    const [claimed] = (await claim()).events;
    const before = Date.now();
    const retried = await core.client.github.events.retry.mutate({
      id: claimed!.id,
      claim_id: claimed!.claim_id,
      error: 'GitHub answered 502',
    });
    expect(retried.retried).toBe(true);
    expect(Date.parse(retried.available_at!)).toBeGreaterThanOrEqual(before + 10_000);
    expect((await claim()).events).toEqual([]);
    expect(await platform.core.services.store.events.get(claimed!.id)).toMatchObject({ lastError: 'GitHub answered 502', attempts: 1 });
    expect(await core.client.github.events.retry.mutate({ id: claimed!.id, claim_id: claimed!.claim_id, error: 'again' })).toEqual({
      retried: false,
      available_at: null,
    });
  });
});

it('a preview run that ended while core was stopping is announced when core starts again', async () => {
  const first = await startPlatform({ evalConcurrency: 0 });
  await previewWorkspace(first, 'restart', 'restart/bot');
  let core = connectCoreChannel(first.core.url, first.internalToken);
  const preview = await core.client.github.previews.deploy.mutate(pullRequest('restart/bot', 'restart'));
  core.close();
  // The run ends in the database, but core stops before it announces it (as a crash between the two would).
  const { store } = first.core.services;
  const workspaceId = (await store.workspaces.findBySlug('restart'))!.id;
  expect(await store.evalRuns.cancel(workspaceId, preview.run_id, new Date().toISOString())).toBe(true);
  expect(await store.events.claim(10, new Date().toISOString(), new Date(Date.now() + 60_000).toISOString(), () => 'clm_peek')).toEqual([]);
  await first.halt();

  const again = await startPlatform({
    evalConcurrency: 0,
    dataDir: first.dataDir,
    databaseUrl: first.databaseUrl,
    secretKey: first.secretKey,
  });
  core = connectCoreChannel(again.core.url, again.internalToken);
  try {
    // Core announces what it left undone in the background, once it serves: the app's claims find it soon after.
    const claimed: unknown[] = [];
    await expect
      .poll(async () => {
        const { events } = await core.client.github.events.claim.mutate({ consumer: 'app', max: 10, wait_ms: 0 });
        claimed.push(...events.map((e) => [e.kind, e.payload]));
        return claimed;
      })
      .toEqual([['run_finished', { run_id: preview.run_id }]]);
  } finally {
    core.close();
    await again.stop();
  }
});
