import type { EvalResultView, EvalRunDetailView, EvalRunView } from '@svc/domain';
import type { ReplayedCase } from '../src/index.ts';

const at = (minute: number) => `2026-06-01T12:${String(minute).padStart(2, '0')}:00.000Z`;

/** A passing result of the support agent, graded by a judge of another family. */
export function result(overrides: Partial<EvalResultView> = {}): EvalResultView {
  return {
    case_id: 'case_01',
    question: 'Can I still return shoes I bought three weeks ago?',
    agent: 'support',
    verdict: 'pass',
    graded: 'pass',
    flaky: false,
    reasoning: 'The agent said returns close 30 days after delivery and offered store credit.',
    replay_chat_id: 'chat_r01',
    regression: false,
    baseline: 'pass',
    repeats: { passed: 1, total: 1 },
    override: null,
    judge: 'anthropic:claude-sonnet-4-5',
    tokens: { input: 1_240, output: 86 },
    ...overrides,
  };
}

/** A finished run of the feature branch's v4, every case done, counts as the results give them. */
export function run(results: EvalResultView[], overrides: Partial<EvalRunDetailView> = {}): EvalRunDetailView {
  const tally = (verdict: string) => results.filter((r) => r.verdict === verdict).length;
  return {
    id: 'run_07',
    environment: 'feat-refund-flow',
    agent: null,
    version: { id: 'ver_04', number: 4 },
    trigger: 'manual',
    status: 'finished',
    repeat: 1,
    min_pass: 1,
    cases: results.length,
    done: results.length,
    passed: tally('pass'),
    failed: tally('fail'),
    errors: tally('error'),
    regressions: results.filter((r) => r.regression).length,
    skipped: 0,
    finished: true,
    grader: 'anthropic:claude-sonnet-4-5',
    agent_models: ['openai:gpt-4.1-mini'],
    tokens: {
      input: results.reduce((sum, r) => sum + r.tokens.input, 0),
      output: results.reduce((sum, r) => sum + r.tokens.output, 0),
    },
    created_by: 'ada@example.com',
    created_at: at(0),
    finished_at: at(3),
    baseline_run_id: 'run_05',
    results,
    skipped_cases: [],
    ...overrides,
  };
}

/** The latest finished live run: v3, published on the day before. */
export function baseline(overrides: Partial<EvalRunView> = {}): EvalRunView {
  return {
    id: 'run_05',
    environment: 'live',
    agent: null,
    version: { id: 'ver_03', number: 3 },
    trigger: 'publish',
    status: 'finished',
    repeat: 1,
    min_pass: 1,
    cases: 5,
    done: 5,
    passed: 4,
    failed: 1,
    errors: 0,
    regressions: 0,
    skipped: 0,
    finished: true,
    grader: 'anthropic:claude-sonnet-4-5',
    agent_models: ['openai:gpt-4.1-mini'],
    tokens: { input: 5_900, output: 400 },
    created_by: 'svc',
    created_at: '2026-05-31T09:00:00.000Z',
    finished_at: '2026-05-31T09:02:00.000Z',
    ...overrides,
  };
}

/** A returns conversation replayed: two visitor turns and the agent's two replies. */
export function replayed(overrides: Partial<ReplayedCase> = {}): ReplayedCase {
  return {
    turns: ['Hi! I bought shoes last month.', 'Can I return them after 40 days?'],
    replies: ['Hello! How can I help with your order?', 'Returns close 30 days after delivery, but I can offer store credit.'],
    expected: 'Returns are accepted within 30 days of delivery; after that, offer store credit.',
    ...overrides,
  };
}
