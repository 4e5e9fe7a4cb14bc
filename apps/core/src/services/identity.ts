import { DomainError, tokenPrefix } from '@svc/domain';
import type { DeveloperToken, Store, User } from '../store/store.ts';
import { type Clock, isoNow } from './clock.ts';
import { newId } from './ids.ts';
import { digestsEqual, generateSecret, sha256 } from './secrets.ts';

export interface Principal {
  user: User;
  token: DeveloperToken;
}

/** last_used_at is written at most this often per token, to keep reads from turning into writes. */
const lastUsedResolutionMs = 60_000;

export function createIdentityService(store: Store, clock: Clock) {
  return {
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
      const hash = sha256(presented);
      const found = await store.developerTokens.findActiveByHash(hash);
      if (!found || !digestsEqual(found.token.tokenHash, hash)) return undefined;
      const { token, user } = found;
      const now = clock();
      if (!token.lastUsedAt || now.getTime() - Date.parse(token.lastUsedAt) > lastUsedResolutionMs) {
        token.lastUsedAt = now.toISOString();
        await store.developerTokens.markUsed(token.id, token.lastUsedAt);
      }
      return { user, token };
    },

    listTokens(userId: string): Promise<DeveloperToken[]> {
      return store.developerTokens.listForUser(userId);
    },

    async revokeToken(userId: string, tokenId: string): Promise<void> {
      const revoked = await store.developerTokens.revoke(tokenId, userId, isoNow(clock));
      if (!revoked) throw new DomainError('not_found', `no active token ${tokenId}`);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
