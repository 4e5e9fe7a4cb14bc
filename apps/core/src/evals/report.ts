import { renderRunReport } from '@svc/digest';
import { replayedTurns } from '@svc/domain';
import type { Membership, Store } from '../store.ts';
import type { EvalRunService } from './runs.ts';
import type { GraderAgreement } from './grader-agreement.ts';

/** The markdown report of a run: what the API's `.md` serves and what the CLI links to. */
export function createEvalReports(store: Store, runs: EvalRunService, graders: GraderAgreement, publicUrl: string) {
  return {
    async markdown(membership: Pick<Membership, 'id' | 'slug'>, id: string): Promise<{ markdown: string }> {
      const run = await runs.get(membership.id, id);
      const baseline = run.baseline_run_id ? await runs.get(membership.id, run.baseline_run_id) : null;
      const cases = Object.fromEntries(
        await Promise.all(
          run.results.map(async (result) => {
            const evalCase = await store.evalCases.get(membership.id, result.case_id);
            const messages = result.replay_chat_id ? await store.chats.messages(result.replay_chat_id) : [];
            const replay = {
              turns: (evalCase?.turns ?? []).slice(-replayedTurns),
              replies: messages.filter((m) => m.role === 'agent').map((m) => m.text),
              expected: evalCase?.expected ?? '',
            };
            return [result.case_id, replay] as const;
          }),
        ),
      );
      const url = `${publicUrl}/w/${membership.slug}/evals/${run.id}`;
      const agreement = await graders.list(membership.id);
      return { markdown: renderRunReport({ workspace: membership.slug, run, baseline, cases, url, graders: agreement.graders }) };
    },
  };
}

export type EvalReports = ReturnType<typeof createEvalReports>;
