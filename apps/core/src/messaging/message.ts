import { DeliveryError } from '../services/outbox-loop.ts';

/** A one-time code to deliver. */
export interface OtpMessage {
  to: string;
  code: string;
  verificationId: string;
  workspaceId: string;
  workspaceSlug: string;
  ttlMinutes: number;
}

export interface SendResult {
  providerMessageId: string;
}

export const otpText = (message: Pick<OtpMessage, 'code' | 'ttlMinutes'>) =>
  `${message.code} is your verification code. For your security, do not share this code. It expires in ${message.ttlMinutes} minutes.`;

const sendTimeoutMs = 10_000;

/** POSTs to a provider and classifies the outcome; `describe` turns a provider's error body into a sentence. */
export async function postToProvider(
  url: string,
  init: { headers: Record<string, string>; body: string },
  describe: (status: number, body: unknown) => string,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(sendTimeoutMs) });
  } catch (error) {
    throw new DeliveryError(`could not reach the provider: ${(error as Error).message}`, true);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (response.ok) return body;
  const retryable = response.status >= 500 || response.status === 429 || response.status === 408;
  throw new DeliveryError(`${response.status}: ${describe(response.status, body)}`, retryable);
}
