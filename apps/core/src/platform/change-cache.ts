import type { Changes, ChangeTopic } from './changes.ts';

export interface ChangeCacheOptions<V> {
  changes: Changes;
  /** The topic whose changes make entries stale. */
  topic: ChangeTopic;
  /** How long an entry is kept at most: the bound on staleness should a change notification be lost. */
  ttlMs: number;
  /** Entries kept at most; past it the oldest go first. */
  maxEntries: number;
  /** The change key that makes an entry stale, when it is not the entry's own key. */
  changeKeyOf?: (key: string, value: V) => string;
  now?: () => number;
}

/**
 * A bounded, time-limited cache that forgets an entry when any core publishes a change of it, and everything on a
 * reset. A load that a change overtook (it began before the change was heard and ended after) is answered but not
 * kept, and nothing is kept while the feed is not live: a cache never outlives a change it could have heard.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  /** Counts the changes heard, so a load knows whether one overtook it. */
  private changesHeard = 0;
  private readonly now: () => number;
  readonly stop: () => void;

  constructor(private readonly options: ChangeCacheOptions<V>) {
    this.now = options.now ?? Date.now;
    this.stop = options.changes.subscribe(options.topic, (key) => this.forget(key));
  }

  /** The value of `key`, loaded when not kept; an undefined value is not kept. */
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && kept.until > now) return kept.value;
    if (kept) this.entries.delete(key);
    const heard = this.changesHeard;
    const value = await load();
    if (value === undefined || heard !== this.changesHeard || !this.options.changes.live) return value;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: now + this.options.ttlMs });
    return value;
  }

  private forget(changeKey: string | undefined): void {
    this.changesHeard++;
    const { changeKeyOf } = this.options;
    if (changeKey === undefined) this.entries.clear();
    else if (!changeKeyOf) this.entries.delete(changeKey);
    else for (const [key, { value }] of this.entries) if (changeKeyOf(key, value) === changeKey) this.entries.delete(key);
  }
}
