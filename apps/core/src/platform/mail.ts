import type { Logger } from '@svc/server-kit';
import nodemailer from 'nodemailer';
import type { CoreConfig } from './config.ts';
import type { MailRecord, MailStore, NewMail } from './mail-store.ts';
import type { Clock } from './clock.ts';
import { newId } from './ids.ts';
import { createOutboxLoop, DeliveryError } from './outbox-loop.ts';
import type { Keyring } from './secrets.ts';

/** How long a mailed sign-in link works; its mail is retried for as long. */
export const signInLinkLifetimeMs = 15 * 60 * 1000;

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Mails in flight at once, per core: each opens its own SMTP connection, and relays limit a client's connections. */
const mailsAtOnce = 32;

/**
 * The SMTP URL with a deadline on connecting, on the server's greeting and on each exchange, unless it sets its own
 * (nodemailer reads them from the URL's query). A server that takes the connection and then says nothing would
 * otherwise hold a send past the mail's claim, and another core would send the mail too.
 */
function withDeadlines(smtpUrl: string, timeoutMs: number): string {
  const url = new URL(smtpUrl);
  for (const name of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(timeoutMs));
  }
  return url.href;
}

/**
 * Mail through the mail outbox: SMTP (nodemailer, SMTP_URL) when configured, else local mode's dev mailbox.
 * Bodies carry sign-in links, so they are sealed at rest and cleared once sent.
 */
export function createMailer(store: MailStore, keyring: Keyring, config: CoreConfig, clock: Clock, log: Logger) {
  const transport = config.mail.smtpUrl ? nodemailer.createTransport(withDeadlines(config.mail.smtpUrl, config.mail.timeoutMs)) : undefined;
  const now = () => clock().toISOString();

  async function send(mail: MailRecord): Promise<void> {
    if (!mail.bodySealed) throw new DeliveryError('the mail body is gone', false);
    const { text, html } = JSON.parse(keyring.decrypt(mail.bodySealed)) as { text: string; html: string };
    if (transport) {
      try {
        await transport.sendMail({ from: config.mail.from, to: mail.to, subject: mail.subject, text, html });
      } catch (error) {
        const responseCode = (error as { responseCode?: number }).responseCode ?? 0;
        throw new DeliveryError(`SMTP: ${(error as Error).message}`, responseCode < 500);
      }
    } else if (config.localMode) {
      await store.devMails.add({ id: newId('mail'), to: mail.to, subject: mail.subject, text, html, createdAt: now() });
    } else {
      throw new DeliveryError('no SMTP_URL is configured', false);
    }
    log.info({ mail: mail.id }, 'mail sent'); // not the subject: a sign-in mail's carries the user code
  }

  const loop = createOutboxLoop<MailRecord, void>(
    {
      claim: (claim, limit) => store.mails.claim(claim, limit),
      // Every mail carries a link: once it expires, the mail is of no use. Most are sign-in links.
      deadline: (mail) => mail.deliverUntil ?? new Date(Date.parse(mail.createdAt) + signInLinkLifetimeMs).toISOString(),
      renew: (held, until) => store.mails.renew(held, until),
      confirm: async (mail, claimId, until) => (await store.mails.renew([{ id: mail.id, claimId }], until)).length > 0,
      send,
      sent: (mail, claimId) => store.mails.markSent(mail.id, claimId, now()),
      retry: (mail, claimId, next, reason) => store.mails.markRetry(mail.id, claimId, next, reason),
      fail: (mail, claimId, reason) => store.mails.markFailed(mail.id, claimId, reason),
    },
    { name: 'mails', concurrency: mailsAtOnce, ...config.delivery, clock, log },
  );

  return {
    /** Whether a mail can be delivered at all. */
    available: Boolean(transport) || config.localMode,
    /**
     * A mail ready for the outbox, to insert in the same transaction as what it announces; retried until
     * `deliverUntil` when its link works longer than a sign-in link.
     */
    compose(content: MailContent, deliverUntil: string | null = null): NewMail {
      return {
        deliverUntil,
        id: newId('mail'),
        to: content.to,
        subject: content.subject,
        bodySealed: keyring.encrypt(JSON.stringify({ text: content.text, html: content.html })),
        createdAt: now(),
      };
    },
    loop,
  };
}

export type Mailer = ReturnType<typeof createMailer>;
