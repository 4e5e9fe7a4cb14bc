import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSmtpCapture, type SmtpCapture } from '@svc/testkit';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { acmeWithFlags, digestCores } from './digest-world.ts';

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.close());
let cores: ReturnType<typeof digestCores>;
afterEach(() => cores.stopAll());

/** The `flags_issue` events in core's event outbox, oldest first. */
function flagsIssueEvents(dataDir: string): { key: string; payload: unknown }[] {
  const db = new Database(join(dataDir, 'svc.db'), { readonly: true });
  const rows = db.prepare(`select key, payload from event_outbox where kind = 'flags_issue' order by created_at, key`).all() as {
    key: string;
    payload: string;
  }[];
  db.close();
  return rows.map((row) => ({ key: row.key, payload: JSON.parse(row.payload) as unknown }));
}

it('asks the GitHub App daily, once a day across restarts, to update the flags issue of each linked repository it is installed on', async () => {
  cores = digestCores(smtp.url);
  cores.at('2026-04-05T11:00:00.000Z'); // 07:00 in Santiago
  const first = await cores.start();
  const { workspace } = await acmeWithFlags(first.services, ['Greet by name.']);
  const { store } = first.services;
  const at = first.services.clock().toISOString();
  for (const repository of ['Acme/Support-Bot', 'acme/not-installed'])
    await store.githubLinks.create({ workspaceId: workspace.id, repository, createdBy: 'usr_x', createdAt: at });
  await store.githubInstallations.sync(42, ['acme/support-bot', 'someone/else'], [], at);
  await first.stop();

  cores.at('2026-04-05T12:30:00.000Z'); // 08:30: the day's run at start
  const late = await cores.start();
  await late.services.dailyDigest.idle();
  const today = { key: 'Acme/Support-Bot:2026-04-05', payload: { workspace_id: workspace.id, repository: 'Acme/Support-Bot' } };
  expect(flagsIssueEvents(cores.dataDir)).toEqual([today]);
  await late.stop();

  cores.at('2026-04-05T20:00:00.000Z'); // a restart the same day asks nothing more
  const again = await cores.start();
  await again.services.dailyDigest.idle();
  expect(flagsIssueEvents(cores.dataDir)).toEqual([today]);
  await again.stop();

  // The next day, with no new flag and so no mail, the issue is still brought up to date.
  cores.at('2026-04-06T11:30:00.000Z'); // 07:30: before the day's time, nothing yet
  const next = await cores.start();
  await next.services.dailyDigest.idle();
  expect(flagsIssueEvents(cores.dataDir)).toEqual([today]);
  cores.at('2026-04-06T12:00:00.000Z');
  expect(await next.services.dailyDigest.run()).toEqual({
    day: '2026-04-06',
    workspaces: { acme: 'nothing_new' },
    flagsIssues: ['Acme/Support-Bot'],
  });
  expect(flagsIssueEvents(cores.dataDir).map((event) => event.key)).toEqual(['Acme/Support-Bot:2026-04-05', 'Acme/Support-Bot:2026-04-06']);

  // Forced (local mode's POST /dev/digest): asked again the same day.
  cores.at('2026-04-06T12:05:00.000Z');
  expect((await next.services.dailyDigest.run({ force: true })).flagsIssues).toEqual(['Acme/Support-Bot']);
  expect(flagsIssueEvents(cores.dataDir)).toHaveLength(3);
});
