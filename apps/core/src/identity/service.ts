import { DomainError, type PageQuery, tokenPrefix } from '@svc/domain';
import { z } from 'zod';
import { ChangeCache } from '../platform/change-cache.ts';
import type { DeveloperToken, Store, User } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { nextCursorOf, pageRequest } from '../platform/pages.ts';
import { digestsEqual, generateSecret, sha256 } from '../platform/secrets.ts';

export interface Principal {
  user: User;
  token: DeveloperToken;
}

/** last_used_at is written at most this often per token, to keep reads from turning into writes. */
const lastUsedResolutionMs = 60_000;
/**
 * How long a token's principal is kept in memory at most; a revocation through any core drops it from every core's
 * memory at once (the store's change feed), so this only bounds a lost notification.
 */
const principalTtlMs = 60_000;
const maxPrincipals = 10_000;

export function createIdentityService(store: Store, clock: Clock) {
  // Every API request authenticates: the principals looked up answer for a minute without a query, until any core
  // revokes their token.
  const principals = new ChangeCache<Principal>({
    changes: store.changes,
    topic: 'developer-tokens',
    ttlMs: principalTtlMs,
    maxEntries: maxPrincipals,
    changeKeyOf: (_, principal) => principal.token.id,
    now: () => clock().getTime(),
  });

  const lookUp = (hash: string): Promise<Principal | undefined> =>
    principals.get(hash, async () => {
      const found = await store.developerTokens.findActiveByHash(hash);
      return found && digestsEqual(found.token.tokenHash, hash) ? found : undefined;
    });

  return {
    /** The user of an email, created at its first sign-in; first sign-ins at once end with one user. */
    async findOrCreateUser(email: string): Promise<User> {
      const normalized = email.trim().toLowerCase();
      const existing = await store.users.findByEmail(normalized);
      if (existing) return existing;
      return store.users.create({ id: newId('usr'), email: normalized, createdAt: isoNow(clock) });
    },

    /** Issues a developer token; the plain value is returned once and only its hash is kept. */
    async issueToken(userId: string, name: string): Promise<{ token: string; record: DeveloperToken }> {
      const token = generateSecret(tokenPrefix);
      const record = await store.developerTokens.create({
        id: newId('tok'),
        userId,
        name,
        tokenHash: sha256(token),
        createdAt: isoNow(clock),
      });
      return { token, record };
    },

    /** The principal behind an `Authorization` header value, or undefined for anything else. */
    async authenticate(authorization: string | undefined): Promise<Principal | undefined> {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      const presented = match?.[1];
      if (!presented?.startsWith(tokenPrefix)) return undefined;
      const now = clock();
      const principal = await lookUp(sha256(presented));
      if (!principal) return undefined;
      const { token, user } = principal;
      if (!token.lastUsedAt || now.getTime() - Date.parse(token.lastUsedAt) > lastUsedResolutionMs) {
        token.lastUsedAt = now.toISOString();
        await store.developerTokens.markUsed(token.id, token.lastUsedAt);
      }
      return { user, token };
    },

    /** The user's active tokens, a page at a time, oldest first. */
    async listTokens(userId: string, query: PageQuery): Promise<{ tokens: DeveloperToken[]; next_cursor: string | null }> {
      const page = await store.developerTokens.listForUser(userId, pageRequest(query, z.iso.datetime()));
      return { tokens: page.items, next_cursor: nextCursorOf(page, (token) => ({ key: token.createdAt, id: token.id })) };
    },

    async revokeToken(userId: string, tokenId: string): Promise<void> {
      let revoked: boolean;
      try {
        revoked = await store.developerTokens.revoke(tokenId, userId, isoNow(clock));
      } finally {
        await store.changes.publish('developer-tokens', tokenId);
      }
      if (!revoked) throw new DomainError('not_found', `no active token ${tokenId}`);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
