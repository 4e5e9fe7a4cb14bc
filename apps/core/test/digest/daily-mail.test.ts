import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSmtpCapture, type SmtpCapture } from '@svc/testkit';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { defaultConfig } from '../../src/platform/config.ts';
import { acmeWithFlags, digestCores, flagReplies } from './digest-world.ts';

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.close());
let cores: ReturnType<typeof digestCores>;
afterEach(async () => {
  await cores.stopAll();
  smtp.mails.length = 0;
});

const longNote = `Say that refunds take 5 business days, ${'and explain every step of the refund form in detail '.repeat(6)}`;
const notes = [longNote, 'Quote <b>Tom & "Jerry"</b>’s policy', null, 'Greet by name.', 'Link the refund form.'];

/** Rows of the mail outbox, whatever their state: what a run queued. */
function queued(dataDir: string): { to: string; subject: string }[] {
  const db = new Database(join(dataDir, 'svc.db'), { readonly: true });
  const rows = db.prepare('select "to", subject from mail_outbox order by "to"').all() as { to: string; subject: string }[];
  db.close();
  return rows;
}

it('mails the owner and developers (not supervisors), in text and HTML, when core starts after 08:00 Santiago; a restart that day sends nothing', async () => {
  cores = digestCores(smtp.url);
  cores.at('2026-04-05T11:00:00.000Z'); // 07:00 in Santiago (UTC-4 since the night before)
  const early = await cores.start();
  const { workspace } = await acmeWithFlags(early.services, notes);
  await early.services.dailyDigest.idle();
  expect(queued(cores.dataDir)).toEqual([]);
  await early.stop();

  cores.at('2026-04-05T12:30:00.000Z'); // 08:30: down at 08:00, the day's mail goes out at start
  const late = await cores.start();
  const mails = [await smtp.mail(0), await smtp.mail(1)].sort((a, b) => a.to.localeCompare(b.to));
  expect(mails.map((m) => [m.to, m.subject])).toEqual([
    ['ada@example.com', '4 new flagged replies in acme'],
    ['dev@example.com', '4 new flagged replies in acme'],
  ]);
  const [mail] = mails;
  expect(mail!.text).toContain('- support: Say that refunds take 5 business days, and explain every step');
  expect(mail!.text).toContain('- support: Quote <b>Tom & "Jerry"</b>’s policy');
  expect(mail!.text).toContain('- support: Greet by name.\n- and 1 more');
  expect(mail!.text).not.toContain('Link the refund form.');
  expect(mail!.text).toMatch(/every step of the refund form in detail and[^\n]*…\n/); // the long note, cut
  expect(mail!.text).toContain('svc flags --save flags.md');
  expect(mail!.text).toContain('then ask your coding agent to fix them and run `svc eval`');
  expect(mail!.text).toContain('http://localhost:8080/w/acme/inbox?flagged=true');
  expect(mail!.html).toContain('<li><b>support</b>: Quote &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;’s policy</li>');
  expect(mail!.html).not.toContain('<b>Tom');
  expect(mail!.html).toContain('<pre style="background:#f4f4f4;padding:10px;border-radius:6px">svc flags --save flags.md</pre>');
  expect(mail!.html).toContain('href="http://localhost:8080/w/acme/inbox?flagged=true"');
  cores.at('2026-04-05T20:00:00.000Z');
  await flagReplies(late.services, workspace, ['Reply in Spanish.']); // tomorrow's news
  await late.stop();

  cores.at('2026-04-05T23:00:00.000Z'); // 19:00, same day: the day is done
  const again = await cores.start();
  await again.services.dailyDigest.idle();
  expect(queued(cores.dataDir)).toHaveLength(2);
  expect(smtp.mails).toHaveLength(2);
});

it('mails only what is new since the last mail, and nothing on a day with nothing new', async () => {
  cores = digestCores(smtp.url);
  cores.at('2026-04-05T12:30:00.000Z');
  const core = await cores.start();
  const { flag } = await acmeWithFlags(core.services, ['Greet by name.']);
  const { dailyDigest } = core.services;
  expect(await dailyDigest.run()).toEqual({ day: '2026-04-05', workspaces: { acme: 'mailed' }, flagsIssues: [] });
  expect((await smtp.mail(1)).subject).toBe('1 new flagged reply in acme');

  cores.at('2026-04-05T20:00:00.000Z');
  await flag(['Link the refund form.', null]);
  cores.at('2026-04-06T12:00:00.000Z'); // the 6th, 08:00 in Santiago: the flag of the 5th evening is new
  expect(await dailyDigest.run()).toEqual({ day: '2026-04-06', workspaces: { acme: 'mailed' }, flagsIssues: [] });
  const next = await smtp.mail(3);
  expect(next.subject).toBe('1 new flagged reply in acme');
  expect(next.text).toContain('- support: Link the refund form.\n\n');
  expect(next.text).not.toContain('Greet by name.');

  cores.at('2026-04-07T12:00:00.000Z');
  expect(await dailyDigest.run()).toEqual({ day: '2026-04-07', workspaces: { acme: 'nothing_new' }, flagsIssues: [] });
  expect(queued(cores.dataDir)).toHaveLength(4);
  expect(smtp.mails).toHaveLength(4);
});

it('mails once when runs of the day go at once', async () => {
  cores = digestCores(smtp.url);
  cores.at('2026-04-05T11:00:00.000Z');
  const { services } = await cores.start();
  await acmeWithFlags(services, ['Greet by name.', 'Link the refund form.']);
  cores.at('2026-04-05T12:00:00.000Z');
  const runs = await Promise.all([services.dailyDigest.run(), services.dailyDigest.run(), services.dailyDigest.run()]);
  expect(runs.map((run) => run.workspaces.acme).sort()).toEqual(['done_before', 'done_before', 'mailed']);
  expect(queued(cores.dataDir).map((m) => m.to)).toEqual(['ada@example.com', 'dev@example.com']);
  await smtp.mail(1);
});

it('queues no mail it could not deliver (no SMTP_URL outside local mode): the flags stay new for a later mail', async () => {
  cores = digestCores(smtp.url, { mail: { ...defaultConfig.mail, smtpUrl: undefined } });
  cores.at('2026-04-05T11:00:00.000Z');
  const unmailed = await cores.start();
  const { workspace } = await acmeWithFlags(unmailed.services, ['Greet by name.']);
  cores.at('2026-04-05T12:00:00.000Z');
  expect(await unmailed.services.dailyDigest.run()).toEqual({
    day: '2026-04-05',
    workspaces: { acme: 'no_mail_delivery' },
    flagsIssues: [],
  });
  expect(queued(cores.dataDir)).toEqual([]);
  expect(await unmailed.services.store.digestDays.lastMailed(workspace.id)).toBeUndefined();
});
