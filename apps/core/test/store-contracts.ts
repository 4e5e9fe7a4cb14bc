import type { OpenStore } from './open-store.ts';
import { describeClaimsStoreContract } from './store-contract-claims.ts';
import { describeDigestStoreContract } from './store-contract-digest.ts';
import { describeEvalCountsStoreContract } from './store-contract-eval-counts.ts';
import { describeEvalsStoreContract } from './store-contract-evals.ts';
import { describeFlagPagesStoreContract } from './store-contract-flag-pages.ts';
import { describeFlagsStoreContract } from './store-contract-flags.ts';
import { describeGithubStoreContract } from './store-contract-github.ts';
import { describeMembersStoreContract } from './store-contract-members.ts';
import { describeMoreStoreContract } from './store-contract-more.ts';
import { describePageStoreContract } from './store-contract-pages.ts';
import { describeRetentionStoreContract } from './store-contract-retention.ts';
import { describeStoreContract } from './store-contract.ts';
import { describeSenderStoreContract } from './store-contract-senders.ts';

/** Every part of the store contract: what each store (SQLite, PostgreSQL) must pass. */
export function describeStoreContracts(name: string, open: OpenStore): void {
  describeStoreContract(name, open);
  describeMoreStoreContract(name, open);
  describeSenderStoreContract(name, open);
  describePageStoreContract(name, open);
  describeRetentionStoreContract(name, open);
  describeMembersStoreContract(name, open);
  describeFlagsStoreContract(name, open);
  describeFlagPagesStoreContract(name, open);
  describeEvalsStoreContract(name, open);
  describeEvalCountsStoreContract(name, open);
  describeDigestStoreContract(name, open);
  describeGithubStoreContract(name, open);
  describeClaimsStoreContract(name, open);
}
