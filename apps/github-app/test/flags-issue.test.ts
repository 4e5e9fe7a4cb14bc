import { randomUUID } from 'node:crypto';
import { removeTempDirs } from '@svc/testkit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { github, githubOnlyThroughNock, type RunningApp, startApp } from './harness.ts';
import { IssuesOnGithub } from './issues-on-github.ts';
import { agentFiles, install, repository, startWorld, type World } from './world.ts';

let world: World;
let app: RunningApp;

beforeAll(async () => {
  githubOnlyThroughNock();
  world = await startWorld({ evalConcurrency: 0 });
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

/** What the daily job does for a linked repository: an event asking the app to bring its flags issue up to date. */
async function syncRequested(): Promise<void> {
  const { store } = world.platform.core.services;
  const id = `evt_${randomUUID()}`;
  const now = new Date().toISOString();
  await store.events.enqueue({
    id,
    kind: 'flags_issue',
    key: `${world.workspace.id}:${repository}:${id}`,
    // As the daily job asks it: the app finds the repository's installation in core.
    payload: { workspace_id: world.workspace.id, repository },
    availableAt: now,
    attempts: 0,
    claimId: null,
    claimedUntil: null,
    doneAt: null,
    lastError: null,
    createdAt: now,
  });
  // Done only once the app has handled it; an unexpected GitHub call would fail it and leave it for a retry.
  await expect.poll(async () => (await store.events.get(id))?.doneAt ?? null).not.toBeNull();
}

const digest = () => world.platform.core.services.github.flagsIssue(world.workspace.id);

it('creates the issue with the digest, labelled service-flags, creating the label where it is missing', async () => {
  const scope = github();
  const gh = new IssuesOnGithub(scope).add({ number: 1, title: 'Service flags', user: { login: 'ada' } }); // someone else's
  gh.expectListed().expectLabelChecked().expectCreated();
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  const created = gh.get(2);
  expect(created).toMatchObject({ title: 'Service flags', state: 'open', labels: [{ name: 'service-flags' }] });
  expect(created.body).toBe((await digest()).body);
  expect(created.body).toContain('5 days');
  expect(gh.get(1).body).toBe('');
});

it('writes nothing when the body has not changed', async () => {
  const scope = github();
  const gh = new IssuesOnGithub(scope).add({ number: 3, body: (await digest()).body, labels: [] });
  gh.expectListed();
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  expect(gh.get(3).labels).toEqual([]);
});

it('rewrites a changed body and re-applies the label, keeping the other labels', async () => {
  await world.flag('Say that exchanges are "free of charge".');
  const scope = github();
  const gh = new IssuesOnGithub(scope).add({ number: 3, body: 'yesterday', labels: [{ name: 'triage' }] });
  gh.label = true;
  gh.expectListed().expectLabelChecked().expectUpdated(3);
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  expect(gh.get(3).body).toContain('free of charge');
  expect(
    gh
      .get(3)
      .labels.map((l) => l.name)
      .sort(),
  ).toEqual(['service-flags', 'triage']);
});

it('closes duplicates with a comment pointing to the one kept, and keeps that one current', async () => {
  const scope = github();
  const gh = new IssuesOnGithub(scope).add({ number: 4, body: 'old' }).add({ number: 6, body: 'old' }).add({ number: 9, body: 'old' });
  gh.label = true;
  gh.expectListed().expectCommented(6).expectUpdated(6).expectCommented(9).expectUpdated(9).expectLabelChecked().expectUpdated(4);
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  for (const duplicate of [6, 9]) {
    expect(gh.get(duplicate)).toMatchObject({ state: 'closed' });
    expect(gh.get(duplicate).comments).toEqual([expect.stringContaining('#4')]);
  }
  expect(gh.get(4)).toMatchObject({ state: 'open', body: (await digest()).body });
});

it('reopens the latest closed issue rather than creating one when flags return', async () => {
  const scope = github();
  const gh = new IssuesOnGithub(scope).add({ number: 2, state: 'closed' }).add({ number: 5, state: 'closed' });
  gh.label = true;
  gh.expectListed().expectLabelChecked().expectUpdated(5);
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  expect(gh.get(5)).toMatchObject({ state: 'open', body: (await digest()).body, labels: [{ name: 'service-flags' }] });
  expect(gh.get(2).state).toBe('closed');
  expect(gh.issues).toHaveLength(2);
});

it('gives up on a repository GitHub no longer has, rather than retrying it', async () => {
  const scope = github();
  const gh = new IssuesOnGithub(scope);
  scope.get('/repos/acme/shop/issues').query(true).reply(404, { message: 'Not Found' });
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  expect(gh.issues).toEqual([]);
});

it('closes the issue with a comment once every flag is fixed', async () => {
  const { services } = world.platform.core;
  // A version after the flagged replies' is what fixes their flags.
  const next = await services.deployments.push(world.workspace, world.owner.id, {
    environment: 'preview',
    files: agentFiles('Refunds take 5 days, to the card you paid with.'),
  });
  for (const flag of (await services.flags.list(world.workspace.id, { status: 'open', limit: 100 })).flags)
    await services.flags.markFixed(flag.id, next.version.id, new Date().toISOString());
  expect((await digest()).open).toBe(0);

  const scope = github();
  const gh = new IssuesOnGithub(scope).add({ number: 7, body: 'two flags' });
  gh.expectListed().expectCommented(7).expectUpdated(7);
  await syncRequested();
  expect(scope.pendingMocks()).toEqual([]);
  expect(gh.get(7)).toMatchObject({ state: 'closed', state_reason: 'completed' });
  expect(gh.get(7).comments).toEqual([expect.stringContaining('fixed')]);
});
