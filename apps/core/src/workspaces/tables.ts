import { index, primaryKey, sql, table, text, uniqueIndex } from '../platform/tables/define.ts';

// The workspaces' tables: workspaces, their members, invitations and the record of membership changes.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

export const workspaces = table('workspaces', {
  columns: {
    id: text('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: text('name'),
    createdAt: text('created_at').notNull(),
  },
});

export const memberships = table('memberships', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references('users.id', { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'developer', 'supervisor'] }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.userId), index('memberships_user_idx').on(t.userId)],
});

/** Invitations to join a workspace; only the hash of the mailed link's token is kept. */
export const invitations = table('invitations', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'developer', 'supervisor'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull().references('users.id', { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'accepted', 'revoked'] }).notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
    decidedAt: text('decided_at'),
  },
  // One pending invitation per address and workspace: a new one replaces it.
  indexes: (t) => [
    uniqueIndex('invitations_pending_idx')
      .on(t.workspaceId, t.email)
      .where(sql`${t.status} = 'pending'`),
  ],
});

/** Every change of a workspace's members and invitations: who, what, when. */
export const membershipEvents = table('membership_events', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    action: text('action', { enum: ['invited', 'invitation_revoked', 'joined', 'role_changed', 'removed', 'left'] }).notNull(),
    /** Emails, not user ids: the record outlives a membership and reads the same after it. */
    actorEmail: text('actor_email').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'developer', 'supervisor'] }),
    previousRole: text('previous_role', { enum: ['owner', 'developer', 'supervisor'] }),
    at: text('at').notNull(),
  },
  indexes: (t) => [index('membership_events_workspace_idx').on(t.workspaceId, t.at)],
});
