import { index, integer, table, text } from '../platform/tables/define.ts';

// Identity's tables: users, developer tokens, device sign-in, sessions and sign-in links.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

export const users = table('users', {
  columns: {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    createdAt: text('created_at').notNull(),
  },
});

export const developerTokens = table('developer_tokens', {
  columns: {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references('users.id', { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 of the whole token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
  },
  indexes: (t) => [index('developer_tokens_user_idx').on(t.userId)],
});

export const deviceAuthorizations = table('device_authorizations', {
  columns: {
    id: text('id').primaryKey(),
    /** SHA-256 of the device code (256 random bits); the code itself is never stored. */
    deviceCodeHash: text('device_code_hash').notNull().unique(),
    /**
     * HMAC of the user code (the 8 letters, without the dash) under the key derived from SVC_SECRET_KEY: whoever has the
     * code can approve the sign-in, so the code itself is never stored. Null only in rows of earlier versions.
     */
    userCodeHash: text('user_code_hash').unique(),
    /**
     * The user code in the clear, as earlier versions wrote it; nothing writes or reads it now. Their rows, looked up by
     * hash only, cannot be approved: they expire within the 15 minutes a sign-in request lasts (start again), and
     * retention deletes them. The column stays while cores of an earlier version may still run beside these.
     */
    userCode: text('user_code').unique(),
    status: text('status', { enum: ['pending', 'approved', 'denied', 'spent'] }).notNull(),
    intervalSeconds: integer('interval_seconds').notNull(),
    lastPolledAt: text('last_polled_at'),
    expiresAt: text('expires_at').notNull(),
    clientName: text('client_name').notNull(),
    clientHostname: text('client_hostname'),
    clientIp: text('client_ip'),
    clientUserAgent: text('client_user_agent'),
    email: text('email'),
    userId: text('user_id').references('users.id', { onDelete: 'cascade' }),
    tokenId: text('token_id'),
    decidedAt: text('decided_at'),
    createdAt: text('created_at').notNull(),
  },
});

export const sessions = table('sessions', {
  columns: {
    id: text('id').primaryKey(),
    /** SHA-256 of the cookie value. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id').notNull().references('users.id', { onDelete: 'cascade' }),
    /** The CSRF token of the session's forms. */
    csrfToken: text('csrf_token').notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  // Retention: expired sessions, by expiry.
  indexes: (t) => [index('sessions_expiry_idx').on(t.expiresAt)],
});

/** Magic sign-in links: only a human's POST redeems one, once. */
export const loginLinks = table('login_links', {
  columns: {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email').notNull(),
    /** Where the browser lands once signed in (a path of ours). */
    next: text('next').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
});
