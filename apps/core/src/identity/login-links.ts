import { randomBytes } from 'node:crypto';
import { DomainError } from '@svc/domain';
import type { CoreConfig } from '../platform/config.ts';
import type { NewMail } from '../platform/mail-store.ts';
import type { LoginLinkRecord } from './store.ts';
import type { Store } from '../store.ts';
import { consoleLoginMail } from './auth-mails.ts';
import type { Clock } from '../platform/clock.ts';
import type { IdentityService } from './service.ts';
import { newId } from '../platform/ids.ts';
import { type Mailer, signInLinkLifetimeMs } from '../platform/mail.ts';
import type { RateLimits } from '../platform/rate-limits.ts';
import { sha256 } from '../platform/secrets.ts';
import type { SessionService } from './sessions.ts';

/** Only paths of ours: no open redirect through `next`. */
export const safeNext = (next: string | undefined): string =>
  next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';

export interface LoginLinkDeps {
  store: Store;
  identity: IdentityService;
  sessions: SessionService;
  mailer: Mailer;
  rateLimits: RateLimits;
  config: CoreConfig;
  clock: Clock;
}

/**
 * Magic sign-in links. Opening one (GET, as mail scanners do) only shows a page; a POST from that page
 * redeems it once: it creates the account if needed, starts a session and names the page to land on.
 */
export function createLoginLinkService({ store, identity, sessions, mailer, rateLimits, config, clock }: LoginLinkDeps) {
  return {
    /** A new link to `next` for `email`, with its URL (for the mail) and its record (for the store). */
    issue(email: string, next: string): { url: string; record: LoginLinkRecord } {
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      return {
        url: `${config.publicUrl}/auth/link/${token}`,
        record: {
          id: newId('lnk'),
          tokenHash: sha256(token),
          email: email.trim().toLowerCase(),
          next: safeNext(next),
          expiresAt: new Date(now.getTime() + signInLinkLifetimeMs).toISOString(),
          usedAt: null,
          createdAt: now.toISOString(),
        },
      };
    },

    async checkMailLimits(email: string, ip: string): Promise<void> {
      if (!mailer.available) throw new DomainError('email_not_configured', 'this server cannot send mail (no SMTP_URL)');
      await rateLimits.consume('mailPerIp', ip, 'sign-in mails from your address');
      await rateLimits.consume('mailPerAddress', email.trim().toLowerCase(), 'sign-in mails to this address');
    },

    /** The console's "mail me a sign-in link". */
    async requestConsoleLink(email: string, next: string, ip: string): Promise<void> {
      await this.checkMailLimits(email, ip);
      const { url, record } = this.issue(email, next);
      const mail: NewMail = mailer.compose(consoleLoginMail(record.email, url));
      await store.loginLinks.create(record, mail);
      void mailer.loop.kick();
    },

    /** What the link page shows; never spends the link. */
    async preview(token: string): Promise<{ email: string; valid: boolean }> {
      const link = await store.loginLinks.findByTokenHash(sha256(token));
      if (!link) return { email: '', valid: false };
      return { email: link.email, valid: !link.usedAt && Date.parse(link.expiresAt) > clock().getTime() };
    },

    /** Redeems the link (a human's POST): once, before it expires. */
    async redeem(token: string): Promise<{ sessionToken: string; expiresAt: string; next: string }> {
      const link = await store.loginLinks.findByTokenHash(sha256(token));
      const now = clock();
      if (!link || link.usedAt || Date.parse(link.expiresAt) <= now.getTime()) {
        throw new DomainError('invalid_link', 'this sign-in link was used already or has expired; ask for a new one');
      }
      if (!(await store.loginLinks.use(link.id, now.toISOString()))) {
        throw new DomainError('invalid_link', 'this sign-in link was used already');
      }
      const user = await identity.findOrCreateUser(link.email);
      const session = await sessions.create(user.id);
      return { sessionToken: session.token, expiresAt: session.expiresAt, next: link.next };
    },
  };
}

export type LoginLinkService = ReturnType<typeof createLoginLinkService>;
