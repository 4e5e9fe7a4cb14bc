import { createLogger } from '@svc/server-kit';
import { startRunner } from '@svc/test-platform';
import { removeTempDirs } from '@svc/testkit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { fixture, github, githubOnlyThroughNock, type RunningApp, startApp } from './harness.ts';
import { PullRequestOnGithub } from './pull-request-on-github.ts';
import { agentFiles, install, startWorld, type World } from './world.ts';

// No eval runner runs unless a test starts one: runs stay queued until then.
let world: World;
const apps: RunningApp[] = [];

beforeAll(async () => {
  githubOnlyThroughNock();
  world = await startWorld({ evalConcurrency: 0 });
});
afterEach(() => void nock.cleanAll());
afterAll(async () => {
  for (const app of apps) await app.stop();
  await world?.platform.stop();
  nock.enableNetConnect();
  removeTempDirs();
});

async function appProcess(): Promise<RunningApp> {
  const app = await startApp(world.platform);
  apps.push(app);
  return app;
}

/** Stops an app: its last request for events ends with it, and core claims nothing for it. */
async function stopApp(app: RunningApp): Promise<void> {
  await app.stop();
  apps.splice(apps.indexOf(app), 1);
}

function pullRequestEvent(head: string) {
  const event = fixture<{ pull_request: { head: { sha: string } } }>('pull_request.opened');
  event.pull_request.head.sha = head;
  return event;
}

const runIdIn = (body: string) => body.match(/\/evals\/(\w+)/)![1]!;

it('a new app process writes the result of a run that finished while the app that said "running" was gone', async () => {
  const first = await appProcess();
  await install(first);
  const before = github();
  const pr = new PullRequestOnGithub(before);
  pr.head = 'a'.repeat(40);
  pr.expectHeadRead(pr.head, agentFiles()).expectCommentsListed().expectCommentCreated();
  expect((await first.deliver('pull_request', pullRequestEvent(pr.head))).status).toBe(200);
  expect(before.pendingMocks()).toEqual([]);
  const runId = runIdIn(pr.appComments[0]!.body);
  await stopApp(first);

  // The run finishes with no app running.
  const runner = startRunner({
    coreUrls: [world.platform.core.url],
    secretKey: world.platform.secretKey,
    pollMs: 50,
    log: createLogger('eval-runner', { LOG_LEVEL: 'silent' }),
  });
  const { store } = world.platform.core.services;
  await expect.poll(async () => (await store.evalRuns.find(runId))?.status, { timeout: 20_000 }).toBe('finished');
  await runner.stop();

  const after = github();
  pr.scope = after;
  pr.expectPullRequestRead().expectCommentsListed().expectCommentEdited();
  await appProcess();
  // nock takes an answered request off its list before the answer's callback records the edit: wait for the edit.
  await expect.poll(() => pr.appComments[0]!.body, { timeout: 20_000 }).toContain('## ✅ svc evals: passed');
  expect(after.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.appComments[0]!.body).toContain(runId);
});

it('shows a cancelled run in the comment', async () => {
  const app = apps[0] ?? (await appProcess());
  const scope = github();
  const pr = new PullRequestOnGithub(scope);
  pr.head = 'b'.repeat(40);
  pr.addComment('<!-- svc:pr-preview -->\nan earlier result', { login: 'svc[bot]', type: 'Bot' });
  pr.expectHeadRead(pr.head, agentFiles('Refunds take 5 days, really.')).expectCommentsListed().expectCommentEdited();
  pr.expectPullRequestRead().expectCommentsListed().expectCommentEdited();
  expect((await app.deliver('pull_request', pullRequestEvent(pr.head))).status).toBe(200);
  const runId = runIdIn(pr.appComments[0]!.body);
  await world.platform.core.services.evalRuns.cancel(world.workspace, runId);
  await expect.poll(() => pr.appComments[0]!.body, { timeout: 20_000 }).toContain('## ⚪ svc evals: cancelled');
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
});

it('leaves the comment to the newer commit when a run of an earlier commit ends after a push', async () => {
  const app = apps[0] ?? (await appProcess());
  const scope = github();
  const pr = new PullRequestOnGithub(scope);
  const [older, newer] = ['d'.repeat(40), 'e'.repeat(40)];
  pr.expectHeadRead(older, agentFiles('Refunds take 5 days.')).expectCommentsListed().expectCommentCreated();
  pr.expectHeadRead(newer, agentFiles('Refunds take 5 days!')).expectCommentsListed().expectCommentEdited();
  pr.head = older;
  expect((await app.deliver('pull_request', pullRequestEvent(older))).status).toBe(200);
  const olderRun = runIdIn(pr.appComments[0]!.body);
  pr.head = newer;
  expect((await app.deliver('pull_request', pullRequestEvent(newer))).status).toBe(200);
  const newerRun = runIdIn(pr.appComments[0]!.body);
  expect(scope.pendingMocks()).toEqual([]);

  // The older run ends: the app reads the pull request, sees it has moved on, and writes nothing.
  pr.expectPullRequestRead();
  await world.platform.core.services.evalRuns.cancel(world.workspace, olderRun);
  await expect.poll(() => scope.pendingMocks(), { timeout: 20_000 }).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.appComments[0]!.body).toContain('running');
  expect(pr.appComments[0]!.body).toContain(newerRun);

  pr.expectPullRequestRead().expectCommentsListed().expectCommentEdited();
  await world.platform.core.services.evalRuns.cancel(world.workspace, newerRun);
  await expect.poll(() => pr.appComments[0]!.body, { timeout: 20_000 }).toContain('## ⚪ svc evals: cancelled');
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments[0]!.body).toContain(newerRun);
});
