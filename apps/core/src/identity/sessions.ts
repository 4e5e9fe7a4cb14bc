import { randomBytes } from 'node:crypto';
import type { Store, User } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { sha256 } from '../platform/secrets.ts';

const sessionLifetimeMs = 30 * 24 * 3600 * 1000;

export interface ConsoleSession {
  user: User;
  csrfToken: string;
}

/** Console sessions: a random cookie value, stored only as a hash, with its own CSRF token. */
export function createSessionService(store: Store, clock: Clock) {
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: string }> {
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      const expiresAt = new Date(now.getTime() + sessionLifetimeMs).toISOString();
      await store.sessions.create({
        id: newId('ses'),
        tokenHash: sha256(token),
        userId,
        csrfToken: randomBytes(24).toString('base64url'),
        expiresAt,
        createdAt: now.toISOString(),
      });
      return { token, expiresAt };
    },

    async resolve(token: string | undefined): Promise<ConsoleSession | undefined> {
      if (!token) return undefined;
      const session = await store.sessions.findByTokenHash(sha256(token), clock().toISOString());
      const user = session && (await store.users.findById(session.userId));
      return user && session ? { user, csrfToken: session.csrfToken } : undefined;
    },

    async destroy(token: string): Promise<void> {
      await store.sessions.delete(sha256(token));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
