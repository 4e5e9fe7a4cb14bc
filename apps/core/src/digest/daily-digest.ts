import { allows } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import type { ScheduledTask } from 'node-cron';
import type { CoreConfig } from '../platform/config.ts';
import type { NewWorkspace, Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { digestMail, notesShown } from './digest-mail.ts';
import { dayIn, firedToday, scheduleDaily } from './schedule.ts';
import type { GithubEventService } from '../github/events.ts';
import type { Mailer } from '../platform/mail.ts';

/** A digest mail is worth sending all day: retried through an SMTP outage for that long. */
const mailWorthMs = 86_400_000;

/** What one run did with each workspace. */
export type WorkspaceDigest = 'mailed' | 'nothing_new' | 'done_before' | 'no_mail_delivery' | 'failed';

export interface DigestRun {
  day: string;
  /** The mail of each workspace. */
  workspaces: Record<string, WorkspaceDigest>;
  /** The repositories whose `service-flags` issue the GitHub App was asked to bring up to date. */
  flagsIssues: string[];
}

/**
 * The daily digest: at the schedule's time (node-cron in its zone), each workspace's day is claimed first (a durable
 * row, so any number of cores and restarts do it once), then the owners and developers get a mail when replies
 * were flagged since the workspace's last digest mail, and the GitHub App is asked to bring the `service-flags`
 * issue of each linked repository it is installed on up to date (every day: the issue closes once no flag is left).
 * A core that starts after the day's time runs it then.
 */
export function createDailyDigest(options: {
  store: Store;
  mailer: Mailer;
  events: GithubEventService;
  config: CoreConfig;
  clock: Clock;
  log: Logger;
}) {
  const { store, mailer, events, config, clock, log } = options;
  const schedule = config.digest;
  let task: ScheduledTask | undefined;
  let running: Promise<unknown> | undefined;

  async function mailNewFlags(workspace: NewWorkspace, day: string, at: string): Promise<WorkspaceDigest> {
    const last = await store.digestDays.lastMailed(workspace.id);
    const { count, oldest } = await store.flags.createdBetween(workspace.id, last?.mailedAt ?? null, at, notesShown);
    if (count === 0) return 'nothing_new';
    if (!mailer.available) return 'no_mail_delivery';
    const members = await store.members.list(workspace.id);
    const content = {
      workspace: workspace.slug,
      count,
      flags: oldest.map((flag) => ({ agent: flag.agent, note: flag.note ?? '' })),
      inboxUrl: `${config.publicUrl}/w/${encodeURIComponent(workspace.slug)}/inbox?flagged=true`,
    };
    const deliverUntil = new Date(Date.parse(at) + mailWorthMs).toISOString();
    const mails = members
      .filter((member) => allows(member.role, 'getDailyDigest'))
      .map((member) => mailer.compose(digestMail(member.email, content), deliverUntil));
    await store.digestDays.markMailed(workspace.id, day, at, mails);
    mailer.loop.kick();
    log.info({ workspace: workspace.slug, day, flags: count, mails: mails.length }, 'daily digest mailed');
    return 'mailed';
  }

  /** One `flags_issue` event per linked repository the app is installed on, once a day (again when forced). */
  async function askForFlagsIssues(workspace: NewWorkspace, day: string, at: string, force: boolean): Promise<string[]> {
    const asked: string[] = [];
    for (const { repository } of await store.githubLinks.list(workspace.id)) {
      if (!(await store.githubInstallations.find(repository))) continue;
      const key = force ? `${repository}:${day}:${at}` : `${repository}:${day}`;
      if (await events.enqueue('flags_issue', key, { workspace_id: workspace.id, repository })) asked.push(repository);
    }
    if (asked.length > 0) log.info({ workspace: workspace.slug, day, repositories: asked }, 'daily digest: flags issues queued');
    return asked;
  }

  async function digestWorkspace(workspace: NewWorkspace, day: string, force: boolean, flagsIssues: string[]): Promise<WorkspaceDigest> {
    // The time the day's window of new flags ends: the next mail's window starts there.
    const at = clock().toISOString();
    const claimed = await store.digestDays.claim({ workspaceId: workspace.id, day, claimedAt: at, mailedAt: null });
    if (!claimed && !force) return 'done_before';
    const mailed = await mailNewFlags(workspace, day, at);
    flagsIssues.push(...(await askForFlagsIssues(workspace, day, at, force)));
    return mailed;
  }

  /** One round over every workspace for today (the date in the schedule's zone); `force` redoes a day done before. */
  async function run({ force = false } = {}): Promise<DigestRun> {
    const day = dayIn(clock(), schedule.timeZone);
    const outcome: DigestRun = { day, workspaces: {}, flagsIssues: [] };
    for (const workspace of await store.workspaces.all()) {
      outcome.workspaces[workspace.slug] = await digestWorkspace(workspace, day, force, outcome.flagsIssues).catch((error: unknown) => {
        log.error({ err: error, workspace: workspace.slug, day }, 'daily digest failed for a workspace');
        return 'failed' as const;
      });
    }
    if (Object.values(outcome.workspaces).includes('no_mail_delivery'))
      log.warn({ day }, 'daily digest: new flags, but no SMTP_URL is configured to mail them');
    return outcome;
  }

  function tick(): Promise<unknown> {
    running ??= run()
      .catch((error: unknown) => log.error({ err: error }, 'daily digest failed'))
      .finally(() => (running = undefined));
    return running;
  }

  return {
    run,
    /** Schedules the job, and runs it now when today's time has passed (the claims make that a no-op if done). */
    start() {
      task = scheduleDaily(schedule, () => void tick(), log);
      if (firedToday(schedule, clock())) void tick();
    },
    /** Waits for the run under way, if any. */
    async idle() {
      await running;
    },
    async stop() {
      await task?.destroy();
      await running;
    },
  };
}

export type DailyDigest = ReturnType<typeof createDailyDigest>;
