import { DomainError } from '@svc/domain';
import type { CoreConfig } from '../config.ts';
import { hourOf } from '../store/messaging-store.ts';
import type { Store } from '../store/store.ts';

const hourMs = 3_600_000;

function limited(message: string, retryAfter: number): DomainError {
  return new DomainError('send_limit_exceeded', message, {
    details: { retry_after_seconds: retryAfter },
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/**
 * Guards against SMS/WhatsApp pumping: at most `numberLimit` sends to one number in a sliding window
 * (Twilio's 5 per 10 minutes), and `workspaceHourlyLimit` sends per workspace per clock hour.
 * Over a limit answers 429 with Retry-After: when the oldest send leaves the window, or the hour ends. This check
 * answers early; the store counts each send against the hourly cap in the send's own transaction, so creates that
 * arrive together cannot overshoot it.
 */
export async function enforceSendLimits(
  store: Store,
  config: CoreConfig,
  workspaceId: string,
  phoneNumber: string,
  now: Date,
): Promise<void> {
  const { numberLimit, numberWindowSeconds, workspaceHourlyLimit } = config.otp;
  const windowMs = numberWindowSeconds * 1000;
  const since = new Date(now.getTime() - windowMs).toISOString();
  const times = await store.outbox.recentSendTimes(workspaceId, phoneNumber, since, numberLimit);
  if (times.length >= numberLimit) {
    const oldest = Date.parse(times[numberLimit - 1] ?? since);
    const retryAfter = Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000));
    throw limited(
      `${numberLimit} codes per ${numberWindowSeconds / 60} minutes already sent to this number; retry in ${retryAfter} s`,
      retryAfter,
    );
  }
  const hour = hourOf(now.toISOString());
  if ((await store.outbox.sendsInHour(workspaceId, hour)) >= workspaceHourlyLimit) throw hourUsedUp(config, hour, now);
}

/** The answer when the workspace's sends for `hour` are used up: retry when the hour ends. */
export function hourUsedUp(config: CoreConfig, hour: string, now: Date): DomainError {
  const { workspaceHourlyLimit } = config.otp;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(hour) + hourMs - now.getTime()) / 1000));
  return limited(`this workspace sent its ${workspaceHourlyLimit} codes for this hour; retry in ${retryAfter} s`, retryAfter);
}
