import { DomainError } from '@svc/domain';
import type { Write } from './group-commit.ts';

const duplicateKeyCodes = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

const isDuplicateKey = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && duplicateKeyCodes.has((error as { code?: unknown }).code as string);

/**
 * The store's writes, with a duplicate key answered as the domain error `conflict` (409): a unique index that
 * refuses a write means the request clashed with data already there, not that core failed. Writes that two
 * requests may rightly make at once (a first sign-in, a push of the same content) avoid the clash instead.
 */
export function withDuplicateKeysAsConflicts(write: Write): Write {
  return (work) =>
    write(() => {
      try {
        return work();
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        throw new DomainError('conflict', 'this conflicts with something saved before or at the same time; retry the request');
      }
    });
}
