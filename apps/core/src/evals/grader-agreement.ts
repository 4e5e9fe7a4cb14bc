import { defaultGraderDays, type GraderAgreementListView, type GraderAgreementView } from '@svc/domain';
import type { ReviewTally } from './store.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { deterministicGrader } from './judges.ts';
import { wilsonInterval } from './wilson.ts';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Each grader's agreement with people over reviewed results. A person's pass or fail is a label whether it overturns
 * the grader or confirms it; a result the grader could not grade (an error) has no verdict to agree with, and is not
 * tallied.
 */
export function agreementOf(reviews: ReviewTally[]): GraderAgreementView[] {
  const tallies = new Map<string, { reviewed: number; agreed: number; passFail: number; failPass: number }>();
  for (const review of reviews) {
    const grader = review.judge ?? deterministicGrader;
    const tally = tallies.get(grader) ?? { reviewed: 0, agreed: 0, passFail: 0, failPass: 0 };
    tally.reviewed += review.reviews;
    if (review.graded === review.person) tally.agreed += review.reviews;
    else if (review.graded === 'pass') tally.passFail += review.reviews;
    else tally.failPass += review.reviews;
    tallies.set(grader, tally);
  }
  return [...tallies]
    .map(([grader, t]) => ({
      grader,
      reviewed: t.reviewed,
      agreed: t.agreed,
      agreement: t.agreed / t.reviewed,
      interval: wilsonInterval(t.agreed, t.reviewed),
      grader_pass_person_fail: t.passFail,
      grader_fail_person_pass: t.failPass,
    }))
    .sort((a, b) => b.reviewed - a.reviewed || (a.grader < b.grader ? -1 : 1));
}

/**
 * How far each grader of a workspace agrees with its people, over the reviews of the last `days` days, counted by UTC
 * day: from the start of the day `days` days ago.
 */
export function createGraderAgreement(store: Store, clock: Clock) {
  return {
    async list(workspaceId: string, days = defaultGraderDays): Promise<GraderAgreementListView> {
      const sinceDay = new Date(clock().getTime() - days * dayMs).toISOString().slice(0, 10);
      const graders = agreementOf(await store.evalRuns.reviewTallies(workspaceId, sinceDay));
      return { days, since: `${sinceDay}T00:00:00.000Z`, graders };
    },
  };
}

export type GraderAgreement = ReturnType<typeof createGraderAgreement>;
