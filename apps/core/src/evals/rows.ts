import type { EvalExecutionRecord, EvalRunCounts, EvalRunRecord, ReviewTally } from './store.ts';

/** How both stores keep eval runs and executions: a run's lists as JSON text, the counts as columns. */
type RunRow = Omit<EvalRunRecord, 'version' | 'agentModels' | 'skipped' | 'counts'> &
  Omit<EvalRunCounts, 'tokens'> & {
    versionId: string;
    versionNumber: number;
    agentModels: string;
    skipped: string;
    inputTokens: number;
    outputTokens: number;
  };
type ExecutionRow = Omit<EvalExecutionRecord, 'tokens' | 'judgeTokens'> & {
  inputTokens: number;
  outputTokens: number;
  judgeInputTokens: number;
  judgeOutputTokens: number;
};

export const toRun = ({
  versionId,
  versionNumber,
  agentModels,
  skipped,
  cases,
  done,
  passed,
  failed,
  errors,
  regressions,
  inputTokens,
  outputTokens,
  ...row
}: RunRow): EvalRunRecord => ({
  ...row,
  version: { id: versionId, number: versionNumber },
  agentModels: JSON.parse(agentModels) as string[],
  skipped: JSON.parse(skipped) as EvalRunRecord['skipped'],
  counts: { cases, done, passed, failed, errors, regressions, tokens: { input: inputTokens, output: outputTokens } },
});

export const runRow = ({ version, agentModels, skipped, counts: { tokens, ...counts }, ...run }: EvalRunRecord): RunRow => ({
  ...run,
  ...counts,
  versionId: version.id,
  versionNumber: version.number,
  agentModels: JSON.stringify(agentModels),
  skipped: JSON.stringify(skipped),
  inputTokens: tokens.input,
  outputTokens: tokens.output,
});

// Executions are converted for every case leased and every execution of a run started: the keys are added to the rest
// object rather than spread with it into a new literal, which on Node 20 gets a V8 map of its own each time.
export const toExecution = ({
  inputTokens,
  outputTokens,
  judgeInputTokens,
  judgeOutputTokens,
  ...row
}: ExecutionRow): EvalExecutionRecord =>
  Object.assign(row, {
    tokens: { input: inputTokens, output: outputTokens },
    judgeTokens: { input: judgeInputTokens, output: judgeOutputTokens },
  });

export const executionRow = ({ tokens, judgeTokens, ...execution }: EvalExecutionRecord): ExecutionRow =>
  Object.assign(execution, {
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    judgeInputTokens: judgeTokens.input,
    judgeOutputTokens: judgeTokens.output,
  });

/** Runs still worked on: their executions may be leased. */
export const openRunStatuses = ['queued', 'running'] as const;
/** Executions not done yet: leased ones only until their lease expires. */
export const openExecutionStatuses = ['pending', 'leased'] as const;

/** Thrown inside a run's finish to roll it back: a flag moved on since the run's changes to it were computed. */
export class FlagMoved extends Error {}

/** A row of `grader_reviews` summed, as both stores read it: '' is the deterministic grader. */
export const toReviewTally = ({ grader, ...tally }: Omit<ReviewTally, 'judge'> & { grader: string }): ReviewTally => ({
  judge: grader === '' ? null : grader,
  ...tally,
});
