import type { ConversationMessage, FlagStatus, TurnView } from '@svc/domain';
import type { Chat, ChatMessage } from '../agents/store.ts';
import type { Page, PageRequest } from '../platform/page.ts';

/** What a flag froze of the chat when it was flagged. */
export interface FlagSnapshot {
  reply: string;
  /** The last messages before the reply, oldest first. */
  conversation: ConversationMessage[];
  turn: TurnView;
  /** The visitor's turns up to the one the reply answered: what the flag's eval case replays. */
  turns: string[];
}

export interface FlagRecord {
  id: string;
  workspaceId: string;
  chatId: string;
  messageId: string;
  status: FlagStatus;
  note: string | null;
  agent: string;
  environment: string;
  version: { id: string; number: number };
  channel: string;
  snapshot: FlagSnapshot;
  evalCaseId: string | null;
  fixedByVersion: { id: string; number: number } | null;
  fixedAt: string | null;
  createdBy: string;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface FlagEventRecord {
  id: string;
  flagId: string;
  actor: string;
  fromStatus: FlagStatus | null;
  toStatus: FlagStatus;
  noteBefore: string | null;
  noteAfter: string | null;
  at: string;
}

export interface EvalCaseRecord {
  id: string;
  workspaceId: string;
  agent: string;
  turns: string[];
  expected: string;
  originFlagId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** What a change does to the flag's eval case, in the same transaction. */
export type EvalCaseChange =
  { op: 'create'; evalCase: EvalCaseRecord } | { op: 'update'; id: string; expected: string } | { op: 'delete'; id: string };

/** The flag's new state, applied only if the flag is still at `revision`. */
export interface FlagChange {
  flagId: string;
  revision: number;
  status: FlagStatus;
  note: string | null;
  evalCaseId: string | null;
  fixedByVersion: { id: string; number: number } | null;
  fixedAt: string | null;
  updatedAt: string;
  evalCase?: EvalCaseChange;
  event: FlagEventRecord;
}

/** Which flags a list shows. */
export interface FlagFilter {
  status: FlagStatus | 'all';
  agent?: string;
}

export type FlagCreateOutcome = { created: true } | { created: false; flagId: string };

/** Flags, their history and the eval cases they make. Each write is one transaction with its event and case. */
export interface FlagsStore {
  flags: {
    /** An agent or visitor message with its chat, when the chat is the workspace's. */
    findMessage(workspaceId: string, messageId: string): Promise<{ chat: Chat; message: ChatMessage } | undefined>;
    /**
     * Inserts the flag, its first event and its eval case (if any), unless the reply has a live (not removed) flag,
     * made before or at the same time: then nothing is written and that flag's id is returned.
     */
    create(flag: FlagRecord, event: FlagEventRecord, evalCase?: EvalCaseRecord): Promise<FlagCreateOutcome>;
    get(workspaceId: string, id: string): Promise<FlagRecord | undefined>;
    /** The id of the workspace a flag belongs to. */
    workspaceOf(id: string): Promise<string | undefined>;
    /** A page of the workspace's flags in a state (or all) of one agent (or any), oldest first, after a creation time and id. */
    list(workspaceId: string, filter: FlagFilter, page: PageRequest<string>): Promise<Page<FlagRecord>>;
    /** The workspace's flags among `ids`; unknown ids left out. */
    getMany(workspaceId: string, ids: string[]): Promise<FlagRecord[]>;
    /** The flags of a chat's replies, in any state, oldest first. */
    ofChat(workspaceId: string, chatId: string): Promise<FlagRecord[]>;
    /** The open flags with a note (those a digest shows) of one agent (or any): how many, and the `limit` newest. */
    newestInDigest(workspaceId: string, agent: string | undefined, limit: number): Promise<{ count: number; newest: FlagRecord[] }>;
    /** The flag's events in the order they were recorded. */
    history(flagId: string): Promise<FlagEventRecord[]>;
    /** Applies the change with its event and case change; false (nothing written) when the flag moved on meanwhile. */
    change(change: FlagChange): Promise<boolean>;
    /** Which of these chats have an open flag. */
    openIn(workspaceId: string, chatIds: string[]): Promise<Set<string>>;
    /**
     * The open flags with a note (those the digest lists) created after `after` (any time when null) and at or before
     * `upTo`: how many, and the `limit` oldest.
     */
    createdBetween(
      workspaceId: string,
      after: string | null,
      upTo: string,
      limit: number,
    ): Promise<{ count: number; oldest: FlagRecord[] }>;
  };
}
