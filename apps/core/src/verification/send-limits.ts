import { DomainError } from '@svc/domain';
import type { CoreConfig } from '../platform/config.ts';

const hourMs = 3_600_000;

function limited(message: string, retryAfter: number): DomainError {
  return new DomainError('send_limit_exceeded', message, {
    details: { retry_after_seconds: retryAfter },
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/**
 * Guards against SMS/WhatsApp pumping: at most `numberLimit` sends to one number in a sliding window (Twilio's 5 per
 * 10 minutes), given the newest send times to the number (`recentSendTimes`, newest first, from `sendWindowStart`
 * on). Over the limit answers 429 with Retry-After: when the oldest send leaves the window. The workspace's hourly
 * cap is kept by the store, which counts each send in the send's own write.
 */
export function enforceNumberLimit(config: CoreConfig, recentSendTimes: string[], now: Date): void {
  const { numberLimit, numberWindowSeconds } = config.otp;
  if (recentSendTimes.length < numberLimit) return;
  const oldest = Date.parse(recentSendTimes[numberLimit - 1]!);
  const retryAfter = Math.max(1, Math.ceil((oldest + numberWindowSeconds * 1000 - now.getTime()) / 1000));
  throw limited(
    `${numberLimit} codes per ${numberWindowSeconds / 60} minutes already sent to this number; retry in ${retryAfter} s`,
    retryAfter,
  );
}

/** Where the window of `enforceNumberLimit` starts at `now`. */
export const sendWindowStart = (config: CoreConfig, now: Date): string =>
  new Date(now.getTime() - config.otp.numberWindowSeconds * 1000).toISOString();

/** The answer when the workspace's sends for `hour` are used up: retry when the hour ends. */
export function hourUsedUp(config: CoreConfig, hour: string, now: Date): DomainError {
  const { workspaceHourlyLimit } = config.otp;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(hour) + hourMs - now.getTime()) / 1000));
  return limited(`this workspace sent its ${workspaceHourlyLimit} codes for this hour; retry in ${retryAfter} s`, retryAfter);
}
