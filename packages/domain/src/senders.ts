import { z } from 'zod';

const secret = (description: string) => z.string().min(1).max(4096).meta({ description, writeOnly: true });

export const whatsappCloudSender = z.object({
  kind: z.literal('whatsapp_cloud'),
  phone_number_id: z.string().regex(/^\d{5,30}$/, 'expected the numeric phone number ID'),
  access_token: secret('A system-user access token of the WhatsApp Business account'),
  app_secret: secret('The Meta app secret; signs status webhooks (X-Hub-Signature-256)').optional(),
  webhook_verify_token: z.string().min(8).max(200).optional().meta({
    description: 'What Meta must send when it verifies the webhook URL; a secret: encrypted at rest, never returned',
    writeOnly: true,
  }),
  template: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, 'expected the template name')
    .meta({
      description: 'An AUTHENTICATION template with a copy-code button',
    }),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'expected a language code such as en_US')
    .default('en_US'),
});

export const twilioWhatsappSender = z.object({
  kind: z.literal('twilio_whatsapp'),
  account_sid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'expected an Account SID (AC...)'),
  auth_token: secret('The account auth token; also signs status callbacks (X-Twilio-Signature)'),
  from: z.string().regex(/^whatsapp:\+[1-9]\d{6,14}$/, 'expected whatsapp:+<E.164 number>'),
  content_sid: z.string().regex(/^HX[0-9a-fA-F]{32}$/, 'expected a Content SID (HX...)'),
});

export const devSender = z.object({ kind: z.literal('dev') });

export const senderInput = z
  .discriminatedUnion('kind', [whatsappCloudSender, twilioWhatsappSender, devSender])
  .meta({ id: 'SenderConfig' });
export type SenderInput = z.infer<typeof senderInput>;
export type SenderKind = SenderInput['kind'];

/** Fields that are secret: encrypted at rest, never returned. */
export const senderSecretFields = ['access_token', 'app_secret', 'auth_token', 'webhook_verify_token'] as const;

export const senderView = z
  .object({
    kind: z.enum(['whatsapp_cloud', 'twilio_whatsapp', 'dev']),
    config: z.record(z.string(), z.string()).meta({ description: 'The configuration without its secrets' }),
    secrets_set: z.array(z.string()).meta({ description: 'Names of the secret fields that are set' }),
    webhook_url: z.string().nullable(),
    updated_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Sender' });
export type SenderView = z.infer<typeof senderView>;
