import { exchange, NoAnswer } from './exchange.ts';
import { DeliveryError } from '../../platform/outbox-loop.ts';

/** A one-time code to deliver. */
export interface OtpMessage {
  /** The outbox message it is sent as: providers hand it back in their status callbacks. */
  messageId: string;
  to: string;
  code: string;
  verificationId: string;
  workspaceId: string;
  ttlMinutes: number;
}

export interface SendResult {
  providerMessageId: string;
}

export const otpText = (message: Pick<OtpMessage, 'code' | 'ttlMinutes'>) =>
  `${message.code} is your verification code. For your security, do not share this code. It expires in ${message.ttlMinutes} minutes.`;

/**
 * POSTs to a provider (undici's dispatch API: the delivery loop shares core's CPU with every API call) and
 * classifies the outcome; `describe` turns a provider's error body into a sentence. A provider that has not
 * answered within `timeoutMs` fails the attempt, which is retried; once the request went out, as unanswered.
 */
export async function postToProvider(
  url: string,
  init: { headers: Record<string, string>; body: string },
  describe: (status: number, body: unknown) => string,
  timeoutMs: number,
): Promise<unknown> {
  let status: number;
  let text: string;
  try {
    const target = new URL(url);
    ({ status, text } = await exchange(
      { origin: target.origin, path: `${target.pathname}${target.search}`, method: 'POST', ...init },
      timeoutMs,
    ));
  } catch (error) {
    if (error instanceof NoAnswer) throw new DeliveryError(`no answer from the provider: ${error.message}`, true, true);
    throw new DeliveryError(`could not reach the provider: ${(error as Error).message}`, true);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (status >= 200 && status < 300) return body;
  const retryable = status >= 500 || status === 429 || status === 408;
  throw new DeliveryError(`${status}: ${describe(status, body)}`, retryable);
}
