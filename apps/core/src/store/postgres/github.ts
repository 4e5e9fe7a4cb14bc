import type { GithubStore } from '../automation-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresGithub(_db: PgDb, _transact: Transact): GithubStore {
  return notBuilt<GithubStore>('github', ['githubLinks', 'githubInstallations', 'githubDeliveries', 'previewTargets', 'events']);
}
