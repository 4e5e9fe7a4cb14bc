import { removeTempDirs } from '@svc/testkit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { fixture, github, githubOnlyThroughNock, type RunningApp, startApp } from './harness.ts';
import { repository, startWorld, type World } from './world.ts';

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

it('an installation tells core where the app is installed, and creates the service-flags label where it is missing', async () => {
  expect(await installed()).toBe(false);
  const scope = github()
    .get('/repos/acme/shop/labels/service-flags')
    .reply(404, { message: 'Not Found' })
    .post('/repos/acme/shop/labels', (body) => body.name === 'service-flags' && typeof body.color === 'string')
    .reply(201, { name: 'service-flags' })
    .get('/repos/acme/blog/labels/service-flags')
    .reply(200, { name: 'service-flags' });
  expect((await app.deliver('installation', fixture('installation.created'))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(await installed()).toBe(true);
});

it('a repository removed from the installation gets no preview; added again, it does', async () => {
  expect((await app.deliver('installation_repositories', fixture('installation_repositories.removed'))).status).toBe(200);
  expect(await installed()).toBe(false);
  // The app asks GitHub whether it is installed there after all, and GitHub says no: nothing else is called.
  const confirm = github().get('/repos/acme/shop/installation').reply(404, { message: 'Not Found' });
  expect((await app.deliver('pull_request', fixture('pull_request.opened'))).status).toBe(200);
  expect(confirm.pendingMocks()).toEqual([]);

  const scope = github().get('/repos/acme/shop/labels/service-flags').reply(200, { name: 'service-flags' });
  expect((await app.deliver('installation_repositories', fixture('installation_repositories.added'))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);
  expect(await installed()).toBe(true);
});

it('an uninstalled app is installed nowhere', async () => {
  expect((await app.deliver('installation', fixture('installation.deleted'))).status).toBe(200);
  expect(await installed()).toBe(false);
});

it('a repository linked to no workspace gets no preview', async () => {
  const event = fixture<{ repository: { full_name: string }; pull_request: { base: { repo: { full_name: string } } } }>(
    'pull_request.opened',
  );
  event.repository.full_name = 'acme/blog';
  event.pull_request.base.repo.full_name = 'acme/blog';
  // Were the app to act, it would call GitHub with no answer from nock, and the delivery would fail.
  expect((await app.deliver('pull_request', event)).status).toBe(200);
});
