/** What core keeps in memory that any core may change: each topic's key names what changed. */
export type ChangeTopic =
  /** A developer token revoked; the key is its id. */
  | 'developer-tokens'
  /** A workspace's sender replaced; the key is the workspace id. */
  | 'senders'
  /** A workspace's test numbers replaced; the key is the workspace id. */
  | 'test-numbers'
  /** A user's memberships changed; the key is the user id. */
  | 'memberships';

/** Called with the key that changed, or with none when anything may have changed (notifications may have been lost). */
export type ChangeListener = (key?: string) => void;

/**
 * The store's change feed: how the caches of every core sharing the database learn that a write made through any of
 * them changed what they hold. On SQLite (one core per file) it stays in the process; on PostgreSQL it travels by
 * NOTIFY to every core.
 */
export interface Changes {
  /**
   * Tells every core that `key` of `topic` changed; call it once the write has settled. This core's listeners are
   * called before it returns; other cores' as soon as the notification reaches them. Never rejects: a notification
   * that cannot be sent leaves other cores' caches to their time limit.
   */
  publish(topic: ChangeTopic, key: string): Promise<void>;
  /** Calls `listener` for every change of `topic` and every reset; returns what stops it. */
  subscribe(topic: ChangeTopic, listener: ChangeListener): () => void;
  /**
   * Whether changes are being heard: while not (the feed lost its connection), a cache keeps nothing, and the feed
   * resets every topic when it loses the connection and again once it has it back.
   */
  readonly live: boolean;
  close(): Promise<void>;
}

/** The listeners of each topic, and how a feed calls them. */
export class ChangeListeners {
  private readonly byTopic = new Map<ChangeTopic, Set<ChangeListener>>();

  subscribe(topic: ChangeTopic, listener: ChangeListener): () => void {
    let listeners = this.byTopic.get(topic);
    if (!listeners) this.byTopic.set(topic, (listeners = new Set()));
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  changed(topic: ChangeTopic, key: string): void {
    for (const listener of this.byTopic.get(topic) ?? []) listener(key);
  }

  /** Anything may have changed: every listener of every topic forgets all it holds. */
  reset(): void {
    for (const listeners of this.byTopic.values()) for (const listener of listeners) listener();
  }

  clear(): void {
    this.byTopic.clear();
  }
}
