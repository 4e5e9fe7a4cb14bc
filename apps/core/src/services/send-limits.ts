import { DomainError } from '@svc/domain';
import type { CoreConfig } from '../config.ts';
import type { Store } from '../store/store.ts';

/**
 * Guards against SMS/WhatsApp pumping: at most `numberLimit` sends to one number per window
 * (Twilio's 5 per 10 minutes) and `workspaceHourlyLimit` per workspace per hour. Over a limit
 * answers 429 with Retry-After: when the oldest send in the window leaves it.
 */
export async function enforceSendLimits(
  store: Store,
  config: CoreConfig,
  workspaceId: string,
  phoneNumber: string,
  now: Date,
): Promise<void> {
  const limits = [
    { phoneNumber, max: config.otp.numberLimit, windowMs: config.otp.numberWindowSeconds * 1000, what: 'this number' },
    { phoneNumber: null, max: config.otp.workspaceHourlyLimit, windowMs: 3_600_000, what: 'this workspace' },
  ];
  for (const limit of limits) {
    const since = new Date(now.getTime() - limit.windowMs).toISOString();
    const times = await store.outbox.recentSendTimes(workspaceId, limit.phoneNumber, since, limit.max);
    if (times.length < limit.max) continue;
    const oldestRelevant = times[limit.max - 1] ?? since;
    const retryAfter = Math.max(1, Math.ceil((Date.parse(oldestRelevant) + limit.windowMs - now.getTime()) / 1000));
    const window = limit.windowMs >= 3_600_000 ? 'hour' : `${limit.windowMs / 60_000} minutes`;
    throw new DomainError('send_limit_exceeded', `${limit.max} codes per ${window} already sent to ${limit.what}; retry in ${retryAfter} s`, {
      details: { retry_after_seconds: retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}
