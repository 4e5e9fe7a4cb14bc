import { ChangeListeners, type Changes } from '../changes.ts';

/** The change feed of a SQLite store: one core per database file, so changes are told within the process. */
export function createSqliteChanges(): Changes {
  const listeners = new ChangeListeners();
  return {
    live: true,
    async publish(topic, key) {
      listeners.changed(topic, key);
    },
    subscribe: (topic, listener) => listeners.subscribe(topic, listener),
    async close() {
      listeners.clear();
    },
  };
}
