import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface SmtpCapture {
  /** `smtp://user:pass@127.0.0.1:<port>`, as SMTP_URL takes it. */
  url: string;
  mails: CapturedMail[];
  /** Resolves with the n-th mail (0-based) once it has arrived. */
  mail(index: number, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that accepts every mail (with auth) and keeps it, parsed. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'svc' && auth.password === 'secret') callback(null, { user: 'svc' });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed: ParsedMail) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
          mails.push({ to: to ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '', html: parsed.html || '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://svc:secret@127.0.0.1:${port}`,
    mails,
    async mail(index, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!mails[index]) {
        if (Date.now() > deadline) throw new Error(`expected mail #${index + 1}, got ${mails.length}`);
        await sleep(25);
      }
      return mails[index];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link of ours in a mail's text. */
export const linkIn = (mail: CapturedMail): string => {
  const match = /https?:\/\/\S+\/auth\/link\/[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`no sign-in link in: ${mail.text}`);
  return match[0];
};
