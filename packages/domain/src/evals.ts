import { z } from 'zod';
import { agentSlug, environmentName } from './agents.ts';
import { displayText } from './display-text.ts';
import { versionRef } from './flags.ts';
import { nextCursor, pageQuery } from './pagination.ts';

/** The most visitor turns an eval case keeps. */
export const evalCaseMaxTurns = 50;

/** The visitor turns a replay sends: the last few of the case's. */
export const replayedTurns = 8;

/** The most replays of each case one run may ask for. */
export const maxRepeat = 10;

const visitorTurn = z.string().min(1).max(4_000);
const expectedOutcome = z.string().min(1).max(10_000).meta({
  description: 'What the agent should do or say. Without a judge model, each phrase in double quotes must appear in the last reply',
});

/** An eval case: the visitor turns to replay and the outcome expected. */
export const evalCase = z
  .object({
    id: z.string(),
    agent: z.string(),
    turns: z.array(z.string()).min(1).max(evalCaseMaxTurns),
    expected: z.string(),
    origin: z.union([
      z.object({ flag_id: z.string() }).meta({ description: 'Made from a flag: changed through the flag' }),
      z.object({ created_by: z.string() }).meta({ description: 'Added by hand by this member (email)' }),
    ]),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'EvalCase' });
export type EvalCaseView = z.infer<typeof evalCase>;

export const evalCaseList = z.object({ cases: z.array(evalCase), next_cursor: nextCursor }).meta({ id: 'EvalCaseList' });

export const createEvalCaseInput = z
  .object({
    agent: agentSlug,
    turns: z.array(visitorTurn).min(1).max(evalCaseMaxTurns).meta({ description: "The visitor's messages, oldest first" }),
    expected: expectedOutcome,
  })
  .meta({ id: 'CreateEvalCaseRequest' });
export type CreateEvalCaseInput = z.infer<typeof createEvalCaseInput>;

export const updateEvalCaseInput = createEvalCaseInput
  .partial()
  .refine((input) => Object.keys(input).length > 0, { message: 'give agent, turns or expected' })
  // What the refinement refuses, as the OpenAPI document can say it: `{}`, and unknown fields alone (they are dropped).
  .meta({
    id: 'UpdateEvalCaseRequest',
    minProperties: 1,
    anyOf: Object.keys(createEvalCaseInput.shape).map((field) => ({ required: [field] })),
  });
export type UpdateEvalCaseInput = z.infer<typeof updateEvalCaseInput>;

/** A page of the eval cases, oldest first, narrowed to an agent when asked. */
export const evalCaseQuery = pageQuery.extend({ agent: agentSlug.optional().meta({ description: "Only this agent's cases" }) });
export type EvalCaseQuery = z.infer<typeof evalCaseQuery>;

export const verdict = z.enum(['pass', 'fail', 'error']);
export type Verdict = z.infer<typeof verdict>;

export const runStatus = z.enum(['queued', 'running', 'finished', 'cancelled']);
export type RunStatus = z.infer<typeof runStatus>;

export const runTrigger = z.enum(['manual', 'publish', 'pull_request']);
export type RunTrigger = z.infer<typeof runTrigger>;

export const startRunInput = z
  .object({
    environment: environmentName.optional().meta({ description: 'Where to replay; `preview` when left out' }),
    agent: agentSlug.optional().meta({ description: "Only this agent's cases" }),
    repeat: z.number().int().min(1).max(maxRepeat).optional().meta({ description: 'Replays of each case; 1 when left out' }),
    min_pass: z
      .number()
      .int()
      .min(1)
      .max(maxRepeat)
      .optional()
      .meta({ description: 'Replays that must pass for the case to pass, at most `repeat`; `repeat` when left out' }),
  })
  .refine((input) => input.min_pass === undefined || input.min_pass <= (input.repeat ?? 1), {
    message: 'min_pass must not exceed repeat',
    path: ['min_pass'],
  })
  .meta({ id: 'StartEvalRunRequest' });
export type StartRunInput = z.infer<typeof startRunInput>;

const tokens = z.object({ input: z.number().int(), output: z.number().int() }).meta({ id: 'Tokens' });

/** A run's progress: what the start answers and every list shows. */
export const evalRun = z
  .object({
    id: z.string(),
    environment: z.string(),
    agent: z.string().nullable().meta({ description: "The one agent whose cases run, or null for every agent's" }),
    version: versionRef.meta({ description: 'The version the run replays, pinned when it started' }),
    trigger: runTrigger,
    status: runStatus,
    repeat: z.number().int(),
    min_pass: z.number().int(),
    cases: z.number().int().meta({ description: 'Cases that run (skipped ones excluded)' }),
    done: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int().meta({ description: 'Failed cases, flaky ones included' }),
    errors: z.number().int(),
    regressions: z.number().int().meta({ description: 'Cases that passed in the latest finished live run and fail here' }),
    skipped: z.number().int().meta({ description: 'Cases of agents the environment lacks' }),
    finished: z.boolean().meta({ description: 'True once every case is done or the run was cancelled' }),
    grader: z.string().meta({ description: 'The judge models, comma-separated, or `deterministic`' }),
    agent_models: z.array(z.string()).meta({ description: 'The models of the agents replayed, e.g. `openai:gpt-4.1-mini`' }),
    tokens: tokens.meta({ description: "The agent's tokens over every replay" }),
    created_by: z.string().meta({ description: 'The email of who started it, or `svc` for a run a publish started' }),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'EvalRun' });
export type EvalRunView = z.infer<typeof evalRun>;

export const overrideView = z
  .object({ verdict: z.enum(['pass', 'fail']), by: z.string().meta({ description: 'Email' }), at: z.iso.datetime() })
  .meta({ id: 'EvalOverride' });

/** How many characters of a case's first visitor turn name it in lists. */
export const caseQuestionLength = 72;

/** A case as lists name it: its first visitor turn on one line, cut to `caseQuestionLength` with an ellipsis. */
export function caseQuestion(turns: readonly string[]): string {
  const line = (turns[0] ?? '').replace(/\s+/g, ' ').trim();
  return line.length <= caseQuestionLength ? line : `${line.slice(0, caseQuestionLength - 1).trimEnd()}…`;
}

/** One case's result in a run: derived from its replays, then a person's override. */
export const evalResult = z
  .object({
    case_id: z.string(),
    question: z.string().meta({
      description: `The case's first visitor turn on one line, cut to ${caseQuestionLength} characters with an ellipsis; empty when the case is gone`,
    }),
    agent: z.string(),
    verdict: verdict.meta({ description: 'The override when there is one, else the grader' }),
    graded: verdict.meta({ description: "The grader's verdict, before any override" }),
    flaky: z.boolean().meta({ description: 'Some replays passed, fewer than min_pass' }),
    reasoning: z.string().meta({ description: "The judge's sentence, the grader's finding, or the error" }),
    replay_chat_id: z.string().nullable(),
    regression: z.boolean(),
    baseline: verdict.nullable().meta({ description: 'Its verdict in the latest finished live run, if it ran there' }),
    repeats: z.object({ passed: z.number().int(), total: z.number().int() }),
    override: overrideView.nullable(),
    judge: z.string().nullable().meta({ description: 'The judge model, or null for the deterministic grader' }),
    tokens,
  })
  .meta({ id: 'EvalResult' });
export type EvalResultView = z.infer<typeof evalResult>;

export const evalRunDetail = evalRun
  .extend({
    baseline_run_id: z.string().nullable().meta({ description: 'The latest finished live run regressions compare with' }),
    results: z.array(evalResult).meta({ description: 'Done cases: regressions first, then failures, errors and passes' }),
    skipped_cases: z.array(z.object({ case_id: z.string(), agent: z.string() })),
  })
  .meta({ id: 'EvalRunDetail' });
export type EvalRunDetailView = z.infer<typeof evalRunDetail>;

export const evalRunQuery = pageQuery.extend({
  environment: environmentName.optional().meta({ description: "Only this environment's runs" }),
});

export const evalRunList = z.object({ runs: z.array(evalRun), next_cursor: nextCursor }).meta({ id: 'EvalRunList' });

export const overrideInput = z
  .object({
    verdict: z.enum(['pass', 'fail']).nullable().meta({ description: "A person's verdict; null gives the grader's back" }),
  })
  .meta({ id: 'EvalOverrideRequest' });

/** The judge's answer, as it must come back from the model. */
export const judgeAnswer = z.object({
  verdict: z.enum(['pass', 'fail']),
  reasoning: displayText(z.string().min(1).max(500)),
});
export type JudgeAnswer = z.infer<typeof judgeAnswer>;
