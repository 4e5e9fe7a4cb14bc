import type { Logger } from '@svc/server-kit';
import type { CoreConfig } from '../../platform/config.ts';
import { newId } from '../../platform/ids.ts';
import type { ResolvedSender } from '../senders.ts';
import type { Store } from '../../store.ts';
import { type OtpMessage, otpText, type SendResult } from './message.ts';
import { sendTwilioWhatsapp, type TwilioWhatsappConfig } from './twilio-whatsapp.ts';
import { sendWhatsappCloud, type WhatsappCloudConfig } from './whatsapp-cloud.ts';

export type Messenger = (sender: ResolvedSender, message: OtpMessage) => Promise<SendResult>;

/** Sends a code through the workspace's sender kind. */
export function createMessenger(store: Store, config: CoreConfig, log: Logger, now: () => string): Messenger {
  return async (sender, message) => {
    switch (sender.kind) {
      case 'whatsapp_cloud':
        return sendWhatsappCloud(config.providers, sender.config as unknown as WhatsappCloudConfig, message);
      case 'twilio_whatsapp':
        return sendTwilioWhatsapp(config.providers, sender.config as unknown as TwilioWhatsappConfig, message, sender.webhookUrl ?? '');
      case 'dev': {
        const id = newId('dev');
        const body = otpText(message);
        await store.devMessages.add({
          id,
          workspaceId: message.workspaceId,
          to: message.to,
          body,
          verificationId: message.verificationId,
          createdAt: now(),
        });
        // The code is read at /dev/outbox; a log is kept longer and read by more people than the outbox.
        log.info({ to: message.to, verification: message.verificationId }, 'dev sender: message kept in the dev outbox');
        return { providerMessageId: id };
      }
    }
  };
}
