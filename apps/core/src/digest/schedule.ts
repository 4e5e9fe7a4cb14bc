import { CronExpressionParser } from 'cron-parser';
import type { Logger } from '@svc/server-kit';
import cron, { type ScheduledTask } from 'node-cron';

/** When the daily digest runs: a cron expression read in a time zone. */
export interface DigestSchedule {
  cron: string;
  timeZone: string;
}

/** An expression both node-cron (which runs it) and cron-parser (which computes its times) read. */
export function validCron(expression: string): boolean {
  if (!cron.validate(expression)) return false;
  try {
    CronExpressionParser.parse(expression, { strict: false });
    return true;
  } catch {
    return false;
  }
}

export function validTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The date of an instant in a time zone, `YYYY-MM-DD`: the digest's day. */
export const dayIn = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

const parse = (schedule: DigestSchedule, at: Date) => CronExpressionParser.parse(schedule.cron, { currentDate: at, tz: schedule.timeZone });

/** The first time the schedule fires after `after`. */
export const nextFire = (schedule: DigestSchedule, after: Date): Date => parse(schedule, after).next().toDate();

/**
 * The time the schedule fired today (the date in its zone) at or before `now`, if it did: a core that starts later
 * the same day runs the day's job then.
 */
export function firedToday(schedule: DigestSchedule, now: Date): Date | undefined {
  const latest = parse(schedule, new Date(now.getTime() + 1))
    .prev()
    .toDate();
  return dayIn(latest, schedule.timeZone) === dayIn(now, schedule.timeZone) ? latest : undefined;
}

/** Runs `fire` at each time of the schedule (node-cron, in the schedule's zone), with the time it was due. */
export function scheduleDaily(schedule: DigestSchedule, fire: (due: Date) => void, log?: Logger): ScheduledTask {
  return cron.schedule(schedule.cron, (context) => fire(context.date), {
    timezone: schedule.timeZone,
    name: 'daily-digest',
    unref: true,
    // node-cron's own messages (a time missed while the process was busy) in core's log, not on the console.
    ...(log && {
      logger: {
        info: (message: string) => log.info({ schedule: schedule.cron }, message),
        warn: (message: string) => log.warn({ schedule: schedule.cron }, message),
        error: (message: string | Error, err?: Error) =>
          log.error({ err: err ?? message, schedule: schedule.cron }, 'daily digest schedule'),
        debug: (message: string | Error) => log.debug({ schedule: schedule.cron }, String(message)),
      },
    }),
  });
}
