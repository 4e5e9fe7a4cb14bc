import type { Page, PageRequest } from '../platform/page.ts';

export interface AgentVersion {
  id: string;
  workspaceId: string;
  number: number;
  contentHash: string;
  files: Record<string, string>;
  gitCommit: string | null;
  gitBranch: string | null;
  authorId: string;
  createdAt: string;
}

export interface Environment {
  name: string;
  version: AgentVersion | null;
  updatedAt: string;
}

export interface Chat {
  id: string;
  workspaceId: string;
  agent: string;
  environment: string;
  versionId: string;
  channel: string;
  replay: boolean;
  createdAt: string;
}

/** What the inbox may be narrowed to; each filter left out lists every chat. */
export interface InboxFilter {
  agent?: string;
  environment?: string;
  /** Only chats with an open flag on a reply, the ones the inbox marks as flagged. */
  flagged?: true;
}

/** A chat as the inbox lists it, with what its row shows of the conversation. */
export interface InboxChat extends Chat {
  versionNumber: number;
  /** The visitor's first message; null before the visitor said anything. */
  firstVisitorText: string | null;
  messageCount: number;
}

export interface ChatMessage {
  id: string;
  chatId: string;
  role: 'visitor' | 'agent';
  text: string;
  trace: unknown;
  createdAt: string;
}

export interface AgentsStore {
  versions: {
    findByHash(workspaceId: string, contentHash: string): Promise<AgentVersion | undefined>;
    get(workspaceId: string, id: string): Promise<AgentVersion | undefined>;
    /**
     * Inserts a version numbered after the workspace's last one, unless the workspace has a version of the same
     * content hash (made before or at the same time): then that one, with `created: false`.
     */
    create(version: Omit<AgentVersion, 'number'>): Promise<{ version: AgentVersion; created: boolean }>;
    /** The workspace's versions, newest (highest number) first; the page's key is the version number. */
    list(workspaceId: string, page: PageRequest<number>): Promise<Page<AgentVersion>>;
  };
  environments: {
    list(workspaceId: string): Promise<Environment[]>;
    get(workspaceId: string, name: string): Promise<Environment | undefined>;
    /** Points the environment (created if new) at a version. */
    deploy(workspaceId: string, name: string, versionId: string, at: string): Promise<void>;
  };
  secrets: {
    put(workspaceId: string, environment: string, name: string, valueSealed: string, at: string): Promise<void>;
    list(workspaceId: string, environment: string): Promise<{ name: string; updatedAt: string }[]>;
    sealed(workspaceId: string, environment: string): Promise<{ name: string; valueSealed: string }[]>;
  };
  chats: {
    create(chat: Chat): Promise<void>;
    get(workspaceId: string, id: string): Promise<Chat | undefined>;
    /** The inbox: chats that are not replays, newest first, as filtered; the page's key is the creation time. */
    inbox(workspaceId: string, filter: InboxFilter, page: PageRequest<string>): Promise<Page<InboxChat>>;
    countConversations(workspaceId: string, environment?: string): Promise<number>;
    addMessages(messages: ChatMessage[]): Promise<void>;
    messages(chatId: string): Promise<ChatMessage[]>;
  };
}
