import { bigint, index, integer, sql, table, text, uniqueIndex } from '../platform/tables/define.ts';

// The GitHub App's tables: linked repositories, installations, deliveries, previews and the event outbox.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

/** A repository linked to a workspace: `owner/name` as the member gave it, one workspace per repository whatever the case. */
export const githubLinks = table('github_links', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    repository: text('repository').notNull(),
    /** An email: the record outlives a membership. */
    createdBy: text('created_by').notNull(),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [
    uniqueIndex('github_links_repository_idx').on(sql`lower(${t.repository})`),
    index('github_links_workspace_idx').on(t.workspaceId),
  ],
});

/** The repositories the GitHub App is installed on, as its installation webhooks said. */
export const githubInstallations = table('github_installations', {
  columns: {
    repository: text('repository').notNull(),
    installationId: bigint('installation_id').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  indexes: (t) => [
    uniqueIndex('github_installations_repository_idx').on(sql`lower(${t.repository})`),
    index('github_installations_installation_idx').on(t.installationId),
  ],
});

/** Webhook deliveries already taken, by `X-GitHub-Delivery`: a redelivery does nothing twice. */
export const githubDeliveries = table('github_deliveries', {
  columns: {
    id: text('id').primaryKey(),
    receivedAt: text('received_at').notNull(),
  },
  // Retention: deliveries past GitHub's redeliveries, by age.
  indexes: (t) => [index('github_deliveries_received_idx').on(t.receivedAt)],
});

/** The pull request a preview's run reports to. */
export const previewTargets = table('preview_targets', {
  columns: {
    runId: text('run_id').primaryKey().references('eval_runs.id', { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    repository: text('repository').notNull(),
    pullNumber: integer('pull_number').notNull(),
    installationId: bigint('installation_id').notNull(),
    headSha: text('head_sha').notNull(),
    createdAt: text('created_at').notNull(),
  },
});

/** What the GitHub App must do, kept until it says done; claimed with a deadline, so a claimer that died loses it. */
export const eventOutbox = table('event_outbox', {
  columns: {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['run_finished', 'flags_issue'] }).notNull(),
    key: text('key').notNull(),
    /** JSON. */
    payload: text('payload').notNull(),
    availableAt: text('available_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    claimId: text('claim_id'),
    claimedUntil: text('claimed_until'),
    doneAt: text('done_at'),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [
    uniqueIndex('event_outbox_key_idx').on(t.kind, t.key),
    // Claims read only the events not done, the first available first; done ones leave the index.
    index('event_outbox_open_idx')
      .on(t.availableAt, t.id)
      .where(sql`${t.doneAt} is null`),
  ],
});
