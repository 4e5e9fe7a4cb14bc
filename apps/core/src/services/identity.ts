import { DomainError, type PageQuery, tokenPrefix } from '@svc/domain';
import { z } from 'zod';
import type { DeveloperToken, Store, User } from '../store/store.ts';
import { type Clock, isoNow } from './clock.ts';
import { newId } from './ids.ts';
import { nextCursorOf, pageRequest } from './pages.ts';
import { digestsEqual, generateSecret, sha256 } from './secrets.ts';

export interface Principal {
  user: User;
  token: DeveloperToken;
}

/** last_used_at is written at most this often per token, to keep reads from turning into writes. */
const lastUsedResolutionMs = 60_000;
/** How long a token's principal is kept in memory; a revocation through core drops it at once. */
const principalTtlMs = 60_000;
const maxPrincipals = 10_000;

export function createIdentityService(store: Store, clock: Clock) {
  // Every API request authenticates. Core is the single writer of tokens and revokes them only here, so the
  // principals it has looked up can answer for a minute without a query.
  const principals = new Map<string, { principal: Principal; until: number }>();
  /** Counts revocations, so a lookup that a revocation overtook is not kept. */
  let revocations = 0;

  async function lookUp(hash: string, now: number): Promise<Principal | undefined> {
    const kept = principals.get(hash);
    if (kept && kept.until > now) return kept.principal;
    principals.delete(hash);
    const before = revocations;
    const found = await store.developerTokens.findActiveByHash(hash);
    if (!found || !digestsEqual(found.token.tokenHash, hash)) return undefined;
    if (before !== revocations) return found;
    if (principals.size >= maxPrincipals) principals.delete(principals.keys().next().value!);
    principals.set(hash, { principal: found, until: now + principalTtlMs });
    return found;
  }

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
      const principal = await lookUp(sha256(presented), now.getTime());
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
      revocations++;
      const revoked = await store.developerTokens.revoke(tokenId, userId, isoNow(clock));
      for (const [hash, kept] of principals) if (kept.principal.token.id === tokenId) principals.delete(hash);
      if (!revoked) throw new DomainError('not_found', `no active token ${tokenId}`);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
