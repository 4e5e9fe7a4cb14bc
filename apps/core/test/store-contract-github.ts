import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EventRecord, githubAppUser } from '../src/github/store.ts';
import { newRunCounts } from '../src/evals/store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = (minute: number, second = 0) => `2026-01-01T00:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;

/** What every Store must do with GitHub links, installations, deliveries, preview targets and the event outbox. */
export function describeGithubStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: github`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_ada', email: 'ada@example.com', createdAt: at(0) });
      await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(0) }, 'usr_ada');
      await store.workspaces.createWithOwner({ id: 'ws_2', slug: 'globex', name: null, createdAt: at(0) }, 'usr_ada');
    });
    afterEach(() => store.close());

    const link = (workspaceId: string, repository: string) => ({ workspaceId, repository, createdBy: 'ada@example.com', createdAt: at(1) });
    let ids = 0;
    const event = (kind: EventRecord['kind'], key: string, changes: Partial<EventRecord> = {}): EventRecord => ({
      id: `evt_${String((ids += 1)).padStart(4, '0')}`,
      kind,
      key,
      payload: { key },
      availableAt: at(1),
      attempts: 0,
      claimId: null,
      claimedUntil: null,
      doneAt: null,
      lastError: null,
      createdAt: at(1),
      ...changes,
    });
    let claims = 0;
    const claimId = () => `clm_${(claims += 1)}`;

    it('holds the GitHub App as a user from the start, shown by its name', async () => {
      expect(await store.users.findById(githubAppUser.id)).toMatchObject({ email: 'GitHub App' });
    });

    it('links a repository to one workspace only, whatever its case, and shows it as given', async () => {
      expect(await store.githubLinks.create(link('ws_1', 'Acme/Support-Bot'))).toBe(true);
      expect(await store.githubLinks.create(link('ws_2', 'acme/support-bot'))).toBe(false);
      expect(await store.githubLinks.create(link('ws_1', 'ACME/SUPPORT-BOT'))).toBe(false);
      expect(await store.githubLinks.create(link('ws_2', 'acme/website'))).toBe(true);
      expect(await store.githubLinks.find('acme/SUPPORT-bot')).toMatchObject({ workspaceId: 'ws_1', repository: 'Acme/Support-Bot' });
      expect(await store.githubLinks.find('acme/nothing')).toBeUndefined();
      expect((await store.githubLinks.list('ws_1')).map((l) => l.repository)).toEqual(['Acme/Support-Bot']);
      expect((await store.githubLinks.all()).map((l) => [l.workspaceId, l.repository])).toEqual([
        ['ws_1', 'Acme/Support-Bot'],
        ['ws_2', 'acme/website'],
      ]);
    });

    it('links a repository once when workspaces link it at the same time', async () => {
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.githubLinks.create(link(i % 2 ? 'ws_1' : 'ws_2', i % 3 ? 'acme/bot' : 'ACME/Bot'))),
      );
      expect(created.filter(Boolean)).toHaveLength(1);
      const owner = await store.githubLinks.find('acme/bot');
      expect([...(await store.githubLinks.list('ws_1')), ...(await store.githubLinks.list('ws_2'))]).toEqual([owner]);
    });

    it("removes a link of the workspace's only, whatever the case; the repository may then be linked again", async () => {
      await store.githubLinks.create(link('ws_1', 'acme/bot'));
      expect(await store.githubLinks.remove('ws_2', 'acme/bot')).toBe(false);
      expect(await store.githubLinks.remove('ws_1', 'Acme/BOT')).toBe(true);
      expect(await store.githubLinks.remove('ws_1', 'acme/bot')).toBe(false);
      expect(await store.githubLinks.find('acme/bot')).toBeUndefined();
      expect(await store.githubLinks.create(link('ws_2', 'acme/bot'))).toBe(true);
    });

    it('keeps where the app is installed: repositories added and removed, an installation removed whole', async () => {
      await store.githubInstallations.sync(7, ['acme/bot', 'acme/site'], [], at(1));
      await store.githubInstallations.sync(8, ['globex/bot'], [], at(1));
      expect(await store.githubInstallations.find('ACME/Bot')).toEqual({ repository: 'acme/bot', installationId: 7, updatedAt: at(1) });
      await store.githubInstallations.sync(7, [], ['Acme/Site'], at(2));
      expect(await store.githubInstallations.find('acme/site')).toBeUndefined();
      // Removed by another installation than its own: stays.
      await store.githubInstallations.sync(8, [], ['acme/bot'], at(2));
      expect(await store.githubInstallations.find('acme/bot')).toMatchObject({ installationId: 7 });
      // Moved to another installation: the newest holds it.
      await store.githubInstallations.sync(9, ['Acme/Bot'], [], at(3));
      expect(await store.githubInstallations.find('acme/bot')).toEqual({ repository: 'Acme/Bot', installationId: 9, updatedAt: at(3) });
      await store.githubInstallations.removeInstallation(8);
      expect(await store.githubInstallations.find('globex/bot')).toBeUndefined();
      expect(await store.githubInstallations.find('acme/bot')).toMatchObject({ installationId: 9 });
    });

    it('hands a webhook delivery to one claimer, however many claim it at once', async () => {
      const first = await Promise.all(Array.from({ length: 10 }, () => store.githubDeliveries.claim('dlv-1', at(1))));
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await store.githubDeliveries.claim('dlv-1', at(2))).toBe(false);
      expect(await store.githubDeliveries.claim('dlv-2', at(2))).toBe(true);
      expect(await store.githubDeliveries.purge(at(2), 10)).toBe(1);
      expect(await store.githubDeliveries.claim('dlv-2', at(3))).toBe(false);
      expect(await store.githubDeliveries.claim('dlv-1', at(3))).toBe(true);
    });

    it('hands a released delivery out again: its handling failed, and its redelivery is handled', async () => {
      expect(await store.githubDeliveries.claim('dlv-1', at(1))).toBe(true);
      await store.githubDeliveries.release('dlv-1');
      expect(await store.githubDeliveries.claim('dlv-1', at(2))).toBe(true);
      expect(await store.githubDeliveries.claim('dlv-1', at(3))).toBe(false);
    });

    it("keeps a preview run's pull request", async () => {
      await store.versions.create({
        id: 'ver_1',
        workspaceId: 'ws_1',
        contentHash: 'sha256:a',
        files: {},
        gitCommit: 'abc',
        gitBranch: 'feat/x',
        authorId: githubAppUser.id,
        createdAt: at(1),
      });
      await store.evalRuns.create(
        {
          id: 'run_1',
          workspaceId: 'ws_1',
          environment: 'feat-x',
          agent: null,
          version: { id: 'ver_1', number: 1 },
          trigger: 'pull_request',
          repeat: 1,
          minPass: 1,
          grader: 'deterministic',
          agentModels: [],
          status: 'queued',
          baselineRunId: null,
          skipped: [],
          createdBy: githubAppUser.email,
          createdAt: at(1),
          finishedAt: null,
          counts: newRunCounts(0),
        },
        [],
      );
      const target = {
        runId: 'run_1',
        workspaceId: 'ws_1',
        repository: 'Acme/Bot',
        pullNumber: 12,
        installationId: 7,
        headSha: 'abc',
        createdAt: at(1),
      };
      await store.previewTargets.create(target);
      expect(await store.previewTargets.get('run_1')).toEqual(target);
      expect(await store.previewTargets.get('run_2')).toBeUndefined();
      // Announced once ended, and only until its event is made.
      expect(await store.previewTargets.unannounced(10)).toEqual([]);
      await store.evalRuns.finish('run_1', at(2), []);
      expect(await store.previewTargets.unannounced(10)).toEqual([target]);
      await store.events.enqueue(event('flags_issue', 'run_1'));
      expect(await store.previewTargets.unannounced(10)).toEqual([target]);
      await store.events.enqueue(event('run_finished', 'run_1'));
      expect(await store.previewTargets.unannounced(10)).toEqual([]);
    });

    it('enqueues an event once per kind and key, however many enqueue it at once', async () => {
      const made = await Promise.all(Array.from({ length: 10 }, () => store.events.enqueue(event('run_finished', 'run_1'))));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await store.events.enqueue(event('flags_issue', 'run_1'))).toBe(true);
      const claimed = await store.events.claim(10, at(2), at(3), claimId);
      expect(claimed.map((e) => [e.kind, e.key, e.payload])).toEqual([
        ['run_finished', 'run_1', { key: 'run_1' }],
        ['flags_issue', 'run_1', { key: 'run_1' }],
      ]);
    });

    it('never hands one event to two claims at once', async () => {
      for (let i = 0; i < 20; i += 1) await store.events.enqueue(event('flags_issue', `repo_${i}`, { availableAt: at(1, i) }));
      const batches = await Promise.all(Array.from({ length: 12 }, (_, i) => store.events.claim(1 + (i % 3), at(2), at(3), claimId)));
      const claimed = batches.flat();
      expect(new Set(claimed.map((e) => e.id)).size).toBe(claimed.length);
      expect(claimed).toHaveLength(20);
      expect(new Set(claimed.map((e) => e.claimId)).size).toBe(20);
      expect(claimed.every((e) => e.attempts === 1 && e.claimedUntil === at(3))).toBe(true);
      expect(await store.events.claim(10, at(2, 30), at(3), claimId)).toEqual([]);
    });

    it('hands an event out again once its claim expires, and refuses the old claim then', async () => {
      await store.events.enqueue(event('run_finished', 'run_1'));
      const [first] = await store.events.claim(1, at(2), at(3), claimId);
      expect(await store.events.claim(1, at(3), at(4), claimId)).toEqual([]);
      const [second] = await store.events.claim(1, at(3, 1), at(4), claimId);
      expect(second).toMatchObject({ id: first?.id, attempts: 2 });
      expect(await store.events.done(first?.id ?? '', first?.claimId ?? '', at(3, 2))).toBe(false);
      expect(await store.events.retry(first?.id ?? '', first?.claimId ?? '', at(3, 2), 'late')).toBe(false);
      expect(await store.events.done(second?.id ?? '', second?.claimId ?? '', at(3, 3))).toBe(true);
      expect(await store.events.done(second?.id ?? '', second?.claimId ?? '', at(3, 4))).toBe(false);
      expect(await store.events.get(second?.id ?? '')).toMatchObject({ doneAt: at(3, 3) });
      // Done: never handed out again, whatever the time.
      expect(await store.events.claim(1, at(59), at(59, 30), claimId)).toEqual([]);
    });

    it('gives a retried event back from the time it names, with its error kept', async () => {
      await store.events.enqueue(event('flags_issue', 'acme/bot'));
      const [claimed] = await store.events.claim(1, at(2), at(3), claimId);
      expect(await store.events.retry(claimed?.id ?? '', claimed?.claimId ?? '', at(10), 'GitHub answered 502')).toBe(true);
      expect(await store.events.claim(1, at(9, 59), at(11), claimId)).toEqual([]);
      const [again] = await store.events.claim(1, at(10), at(11), claimId);
      expect(again).toMatchObject({ id: claimed?.id, attempts: 2, lastError: 'GitHub answered 502' });
      expect(again?.claimId).not.toBe(claimed?.claimId);
    });
  });
}
