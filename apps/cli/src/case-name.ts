import type { EvalResultView } from '@svc/domain';

/** A case as the CLI names it: its question (its first visitor turn, shortened), then its id, its agent and any notes. */
export function caseName(result: Pick<EvalResultView, 'case_id' | 'question' | 'agent'>, notes: string[] = []): string {
  const about = [result.case_id, result.agent, ...notes].join(', ');
  return result.question ? `"${result.question}" (${about})` : `${result.case_id} (${[result.agent, ...notes].join(', ')})`;
}
