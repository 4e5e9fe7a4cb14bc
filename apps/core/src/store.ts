import type { Role } from '@svc/domain';
import type { AgentsStore } from './agents/store.ts';
import type { AuthStore } from './identity/store.ts';
import type { Changes } from './platform/changes.ts';
import type { DigestStore } from './digest/store.ts';
import type { GithubStore } from './github/store.ts';
import type { EvalsStore } from './evals/store.ts';
import type { FlagsStore } from './flags/store.ts';
import type { MembersStore } from './workspaces/store.ts';
import type { MessagingStore } from './verification/store.ts';
import type { Page, PageRequest } from './platform/page.ts';

export interface User {
  id: string;
  email: string;
  createdAt: string;
}

export interface NewWorkspace {
  id: string;
  slug: string;
  name: string | null;
  createdAt: string;
}

/** A workspace as one of its members sees it. */
export interface Membership extends NewWorkspace {
  role: Role;
}

export interface DeveloperToken {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/**
 * Everything core persists. Services depend on this interface only; each method is atomic,
 * so a store backed by another database implements the same contract (see test/store-contract.ts).
 * A write that a unique key refuses rejects with the DomainError `conflict`, never the database's own error.
 */
export interface Store extends MessagingStore, AuthStore, AgentsStore, MembersStore, FlagsStore, EvalsStore, GithubStore, DigestStore {
  users: {
    /**
     * Creates the user unless one has this email, created before or at the same time: returns the one user with
     * the email either way.
     */
    create(user: User): Promise<User>;
    findById(id: string): Promise<User | undefined>;
    findByEmail(email: string): Promise<User | undefined>;
  };
  workspaces: {
    /** Creates the workspace with its owner; undefined when the slug is taken. */
    createWithOwner(workspace: NewWorkspace, ownerId: string): Promise<Membership | undefined>;
    listForUser(userId: string): Promise<Membership[]>;
    findForUser(slug: string, userId: string): Promise<Membership | undefined>;
    findBySlug(slug: string): Promise<NewWorkspace | undefined>;
    findById(id: string): Promise<NewWorkspace | undefined>;
    /** Every workspace, oldest first: the daily digest's round. */
    all(): Promise<NewWorkspace[]>;
    /** Adds a member, or changes the role of one. */
    addMember(workspaceId: string, userId: string, role: Role, at: string): Promise<void>;
  };
  developerTokens: {
    create(token: Omit<DeveloperToken, 'lastUsedAt' | 'revokedAt'>): Promise<DeveloperToken>;
    /** The token with this hash, unless revoked, with its user: one lookup per authenticated request. */
    findActiveByHash(tokenHash: string): Promise<{ token: DeveloperToken; user: User } | undefined>;
    markUsed(id: string, at: string): Promise<void>;
    /** The user's active tokens, oldest first; the page's key is the creation time. */
    listForUser(userId: string, page: PageRequest<string>): Promise<Page<DeveloperToken>>;
    /** Revokes one of the user's tokens; false when the user has no such active token. */
    revoke(id: string, userId: string, at: string): Promise<boolean>;
  };
  /** Resolves once the database answered a query: core's health. */
  ping(): Promise<void>;
  /** A PostgreSQL store's connections: open, idle, and the queries waiting for one. SQLite has no pool. */
  pool?(): { total: number; idle: number; waiting: number };
  /** Where writes that core's caches depend on are told to every core sharing the database. */
  changes: Changes;
  /** Ends the store's connections once the writes under way are done. */
  close(): Promise<void>;
}
