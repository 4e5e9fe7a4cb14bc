import { removeTempDirs } from '@svc/testkit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { fixture, github, githubOnlyThroughNock, type RunningApp, startApp } from './harness.ts';
import { PullRequestOnGithub } from './pull-request-on-github.ts';
import { agentFiles, install, startWorld, type World } from './world.ts';

let world: World;
let app: RunningApp;

beforeAll(async () => {
  githubOnlyThroughNock();
  world = await startWorld();
  // Live's run of the flag's case, passing: the baseline previews compare with.
  const { services } = world.platform.core;
  const live = await services.evalRuns.start(world.workspace, world.owner.email, { environment: 'live' });
  await vi.waitFor(async () => expect((await services.store.evalRuns.find(live.id))?.status).toBe('finished'), {
    timeout: 20_000,
    interval: 50,
  });
  app = await startApp(world.platform);
  await install(app);
});
afterEach(() => void nock.cleanAll());
afterAll(async () => {
  await app?.stop();
  await world?.platform.stop();
  nock.enableNetConnect();
  removeTempDirs();
});

const sha = (digit: string) => digit.repeat(40);

/** The `pull_request` webhook of pull request 7 (acme/shop, branch feat/refunds) at a head commit. */
function pullRequestEvent(action: 'opened' | 'synchronize' | 'reopened', head: string, name = 'pull_request.opened') {
  const event = fixture<{ action: string; pull_request: { head: { sha: string; ref: string } } }>(name);
  event.action = action;
  event.pull_request.head.sha = head;
  return event;
}

const runsOf = async () =>
  (await world.platform.core.services.store.evalRuns.list(world.workspace.id, undefined, { limit: 1000 })).items.length;

it('says "running" in one comment with the run link, edits it with the result, and a later push edits the same comment', async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope).addComment('Looks good once the evals pass.');
  pr.head = sha('1');
  pr.expectHeadRead(sha('1'), agentFiles()).expectCommentsListed().expectCommentCreated();
  pr.expectPullRequestRead().expectCommentsListed().expectCommentEdited();

  const res = await app.deliver('pull_request', pullRequestEvent('opened', sha('1')));
  expect(res.status).toBe(200);
  expect(pr.appComments).toHaveLength(1);
  const running = pr.appComments[0]!.body;
  expect(running).toContain('running');
  expect(running).toMatch(/http:\/\/localhost:\d+\/w\/acme\/evals\/\w+/);
  expect(running).toContain('feat-refunds');

  // nock takes an answered request off its list before the answer's callback records the edit: wait for the edit.
  await expect.poll(() => pr.appComments[0]!.body, { timeout: 20_000 }).toContain('## ✅ svc evals: passed');
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.comments).toHaveLength(2); // the reviewer's and the app's one
  const finished = pr.appComments[0]!.body;
  expect(finished).toContain(running.match(/evals\/(\w+)/)![1]);

  // A push: the same comment says "running" for the new commit, then its result.
  pr.head = sha('2');
  pr.expectHeadRead(sha('2'), agentFiles()).expectCommentsListed().expectCommentEdited();
  pr.expectPullRequestRead().expectCommentsListed().expectCommentEdited();
  expect((await app.deliver('pull_request', pullRequestEvent('synchronize', sha('2')))).status).toBe(200);
  expect(pr.appComments[0]!.body).toContain('running');
  expect(pr.appComments[0]!.body).toContain(sha('2').slice(0, 7));
  await expect.poll(() => pr.appComments[0]!.body, { timeout: 20_000 }).toContain('## ✅ svc evals: passed');
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.comments).toHaveLength(2);
});

it("shows a failing run in the comment: the case the change broke, with the grader's sentence", async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 7);
  pr.addComment('<!-- svc:pr-preview -->\nan earlier result', { login: 'svc[bot]', type: 'Bot' });
  pr.head = sha('3');
  pr.expectHeadRead(sha('3'), agentFiles('Refunds take a while.')).expectCommentsListed().expectCommentEdited();
  pr.expectPullRequestRead().expectCommentsListed().expectCommentEdited();
  expect((await app.deliver('pull_request', pullRequestEvent('synchronize', sha('3')))).status).toBe(200);
  await expect.poll(() => pr.appComments[0]!.body, { timeout: 20_000 }).toContain('1 regression');
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.appComments[0]!.body).toContain('does not say "5 days"');
});

it('shows a manifest error in the comment with each issue, and deploys nothing', async () => {
  const before = await runsOf();
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 7);
  const files = { ...agentFiles(), 'agents/support/agent.yaml': 'name: Support\nmodel: no-such-provider:x\n' };
  pr.expectHeadRead(sha('4'), files).expectCommentsListed().expectCommentCreated();
  expect((await app.deliver('pull_request', pullRequestEvent('synchronize', sha('4')))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.appComments[0]!.body).toContain('agents/support/agent.yaml');
  expect(pr.appComments[0]!.body).toMatch(/manifest/i);
  expect(await runsOf()).toBe(before);
});

it('shows a head commit without svc.yaml in the comment', async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 7);
  const { 'svc.yaml': _, ...files } = agentFiles();
  pr.expectHeadRead(sha('5'), files, { blobs: false }).expectCommentsListed().expectCommentCreated();
  expect((await app.deliver('pull_request', pullRequestEvent('synchronize', sha('5')))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments[0]!.body).toContain('svc.yaml: not found');
});

it('shows a failed deploy in the comment with its message', async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 7);
  pr.expectHeadRead(sha('a'), agentFiles()).expectCommentsListed().expectCommentCreated();
  const event = pullRequestEvent('synchronize', sha('a'));
  event.pull_request.head.ref = 'live'; // a preview never deploys to live
  expect((await app.deliver('pull_request', event)).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments[0]!.body).toContain('deploy failed');
  expect(pr.appComments[0]!.body).toContain('would deploy to live');
});

it('does not deploy a pull request from a fork: the comment says how a member runs it', async () => {
  const before = await runsOf();
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 8).expectCommentsListed().expectCommentCreated();
  const res = await app.deliver('pull_request', pullRequestEvent('opened', sha('6'), 'pull_request.opened.fork'));
  expect(res.status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.appComments[0]!.body).toContain('fork');
  expect(pr.appComments[0]!.body).toContain('svc push');
  expect(pr.appComments[0]!.body).toContain('svc eval');
  expect(await runsOf()).toBe(before);
});

it("ignores a redelivery: the delivery's one comment is not written again", async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 8).expectCommentsListed().expectCommentCreated();
  const event = pullRequestEvent('reopened', sha('7'), 'pull_request.opened.fork');
  expect((await app.deliver('pull_request', event, { delivery: 'delivery-1' })).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  // Were the redelivery handled, it would call GitHub without an answer from nock, and fail.
  expect((await app.deliver('pull_request', event, { delivery: 'delivery-1' })).status).toBe(200);
  expect(pr.comments).toHaveLength(1);
});

it('handles the redelivery of a delivery whose handling failed: a failure claims nothing', async () => {
  const scope = github();
  const event = pullRequestEvent('reopened', sha('9'), 'pull_request.opened.fork');
  // GitHub fails the app's first read of the pull request's comments, so the delivery is not handled.
  scope.get('/repos/acme/shop/issues/8/comments').query(true).reply(404, { message: 'Not Found' });
  expect((await app.deliver('pull_request', event, { delivery: 'delivery-failed' })).status).not.toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  const pr = new PullRequestOnGithub(scope, 8).expectCommentsListed().expectCommentCreated();
  expect((await app.deliver('pull_request', event, { delivery: 'delivery-failed' })).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
});

it('refuses a webhook with a bad signature with 401 and changes nothing; the same delivery signed is then handled', async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 8);
  const event = pullRequestEvent('reopened', sha('8'), 'pull_request.opened.fork');
  const forged = await app.deliver('pull_request', event, { delivery: 'delivery-2', signature: 'sha256=' + '0'.repeat(64) });
  expect(forged.status).toBe(401);
  expect((await app.deliver('pull_request', event, { delivery: 'delivery-3', signature: 'nothing' })).status).toBe(401);
  expect(pr.comments).toEqual([]);
  // Nothing was claimed: the genuine delivery with the same id is handled.
  pr.expectCommentsListed().expectCommentCreated();
  expect((await app.deliver('pull_request', event, { delivery: 'delivery-2' })).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
});

it("retries GitHub's rate-limit answers after the time they name", async () => {
  const scope = github();
  const pr = new PullRequestOnGithub(scope, 8).expectCommentsListed();
  const comments = '/repos/acme/shop/issues/8/comments';
  const asked: number[] = [];
  // A secondary limit: wait the Retry-After's second.
  scope
    .post(comments)
    .reply(() => (asked.push(Date.now()), [403, { message: 'You have exceeded a secondary rate limit' }, { 'retry-after': '1' }]));
  // The primary limit: wait until its reset, two seconds on.
  const reset = Math.floor(Date.now() / 1000) + 2;
  scope
    .post(comments)
    .reply(
      () => (
        asked.push(Date.now()),
        [429, { message: 'API rate limit exceeded' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }]
      ),
    );
  pr.expectCommentCreated();
  const res = await app.deliver('pull_request', pullRequestEvent('reopened', sha('9'), 'pull_request.opened.fork'));
  const posted = Date.now();
  expect(res.status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(1000);
  expect(posted).toBeGreaterThanOrEqual(reset * 1000);
});

it('answers /healthz', async () => {
  expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
});
