import { defaultGraderDays, type GraderAgreementListView, type GraderAgreementView } from '@svc/domain';
import type { ReviewRecord } from '../store/evals-store.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from './clock.ts';
import { gradedVerdict } from './eval-results.ts';
import { deterministicGrader } from './judges.ts';
import { wilsonInterval } from './wilson.ts';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Each grader's agreement with people over reviewed results. A person's pass or fail is a label whether it overturns
 * the grader or confirms it; a result the grader could not grade (an error) has no verdict to agree with, so it is
 * left out.
 */
export function agreementOf(reviews: ReviewRecord[]): GraderAgreementView[] {
  const tallies = new Map<string, { reviewed: number; agreed: number; passFail: number; failPass: number }>();
  for (const review of reviews) {
    const graded = gradedVerdict(review.minPass, review.replays);
    if (graded === 'error') continue;
    const grader = review.judge ?? deterministicGrader;
    const tally = tallies.get(grader) ?? { reviewed: 0, agreed: 0, passFail: 0, failPass: 0 };
    tally.reviewed++;
    if (graded === review.person) tally.agreed++;
    else if (graded === 'pass') tally.passFail++;
    else tally.failPass++;
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

/** How far each grader of a workspace agrees with its people, over the reviews of the last `days` days. */
export function createGraderAgreement(store: Store, clock: Clock) {
  return {
    async list(workspaceId: string, days = defaultGraderDays): Promise<GraderAgreementListView> {
      const since = new Date(clock().getTime() - days * dayMs).toISOString();
      return { days, since, graders: agreementOf(await store.evalRuns.reviews(workspaceId, since)) };
    },
  };
}

export type GraderAgreement = ReturnType<typeof createGraderAgreement>;
