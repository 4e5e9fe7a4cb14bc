import type { CoreConfig } from '../../platform/config.ts';
import { DeliveryError } from '../../platform/outbox-loop.ts';
import { type OtpMessage, postToProvider, type SendResult } from './message.ts';

const withMessage = (url: string, messageId: string) => {
  const named = new URL(url);
  named.searchParams.set('message', messageId);
  return named.href;
};

export interface TwilioWhatsappConfig {
  account_sid: string;
  auth_token: string;
  from: string;
  content_sid: string;
}

/**
 * Sends the code through Twilio's Messages API with a WhatsApp content template (`{{1}}` is the code). Its status
 * callback names the outbox message (`?message=`), so that a status names it even when this send got no answer.
 */
export async function sendTwilioWhatsapp(
  providers: CoreConfig['providers'],
  config: TwilioWhatsappConfig,
  message: OtpMessage,
  statusCallback: string,
): Promise<SendResult> {
  const form = new URLSearchParams({
    To: `whatsapp:${message.to}`,
    From: config.from,
    ContentSid: config.content_sid,
    ContentVariables: JSON.stringify({ 1: message.code }),
  });
  if (statusCallback) form.set('StatusCallback', withMessage(statusCallback, message.messageId));
  const basic = Buffer.from(`${config.account_sid}:${config.auth_token}`).toString('base64');
  const answer = (await postToProvider(
    `${providers.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(config.account_sid)}/Messages.json`,
    {
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    (_status, error) => {
      const detail = error as { message?: string; code?: number };
      return detail.message ? `${detail.message} (code ${detail.code ?? '?'})` : 'Twilio refused the message';
    },
    providers.timeoutMs,
  )) as { sid?: string };
  if (!answer.sid) throw new DeliveryError('Twilio answered without a message SID', true);
  return { providerMessageId: answer.sid };
}
