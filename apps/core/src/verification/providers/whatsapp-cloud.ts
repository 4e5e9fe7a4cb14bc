import type { CoreConfig } from '../../platform/config.ts';
import { DeliveryError } from '../../platform/outbox-loop.ts';
import { type OtpMessage, postToProvider, type SendResult } from './message.ts';

export interface WhatsappCloudConfig {
  phone_number_id: string;
  access_token: string;
  template: string;
  language: string;
}

interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number };
}

/**
 * Sends the code with an AUTHENTICATION template: the code fills the body parameter and the
 * copy-code (URL) button, as the WhatsApp Cloud API requires. The outbox message's id goes as
 * `biz_opaque_callback_data`, which Meta hands back in the message's status webhooks.
 */
export async function sendWhatsappCloud(
  providers: CoreConfig['providers'],
  config: WhatsappCloudConfig,
  message: OtpMessage,
): Promise<SendResult> {
  const body = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    biz_opaque_callback_data: message.messageId,
    template: {
      name: config.template,
      language: { code: config.language },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: message.code }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: message.code }] },
      ],
    },
  };
  const answer = (await postToProvider(
    `${providers.whatsappGraphUrl}/${encodeURIComponent(config.phone_number_id)}/messages`,
    {
      headers: { authorization: `Bearer ${config.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    (_status, error) => {
      const detail = (error as GraphError).error;
      return detail?.message ? `${detail.message} (code ${detail.code ?? '?'})` : 'the Graph API refused the message';
    },
    providers.timeoutMs,
  )) as { messages?: { id?: string }[] };
  const id = answer.messages?.[0]?.id;
  if (!id) throw new DeliveryError('the Graph API answered without a message id', true);
  return { providerMessageId: id };
}
