import { removeTempDirs } from '@svc/testkit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { fixture, github, githubOnlyThroughNock, installationId, type RunningApp, startApp } from './harness.ts';
import { PullRequestOnGithub } from './pull-request-on-github.ts';
import { agentFiles, repository, startWorld, type World } from './world.ts';

// The app never got the `installation` webhook: it was down when the owner installed it.
let world: World;
let app: RunningApp;

beforeAll(async () => {
  githubOnlyThroughNock();
  world = await startWorld({ evalConcurrency: 0 });
  app = await startApp(world.platform);
});
afterEach(() => void nock.cleanAll());
afterAll(async () => {
  await app?.stop();
  await world?.platform.stop();
  nock.enableNetConnect();
  removeTempDirs();
});

const installed = async () => (await world.platform.core.services.github.installations.find(repository))?.installed ?? false;

const pullRequest = (head: string) => {
  const event = fixture<{ pull_request: { head: { sha: string } } }>('pull_request.opened');
  event.pull_request.head.sha = head;
  return event;
};

it('a pull request of an installation GitHub does not confirm for the repository gets no preview', async () => {
  const scope = github().get('/repos/acme/shop/installation').reply(404, { message: 'Not Found' });
  const pr = new PullRequestOnGithub(scope);
  expect((await app.deliver('pull_request', pullRequest('a'.repeat(40)))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.comments).toEqual([]);
  expect(await installed()).toBe(false);
});

it('a pull request of an installation core never heard of is confirmed with GitHub, told to core, and previewed', async () => {
  const head = 'b'.repeat(40);
  const scope = github()
    .get('/repos/acme/shop/installation')
    .reply(200, { id: installationId, account: { login: 'acme' } });
  const pr = new PullRequestOnGithub(scope);
  pr.head = head;
  pr.expectHeadRead(head, agentFiles()).expectCommentsListed().expectCommentCreated();
  expect((await app.deliver('pull_request', pullRequest(head))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(pr.appComments).toHaveLength(1);
  expect(pr.appComments[0]!.body).toContain('running');
  expect(await installed()).toBe(true);
});
