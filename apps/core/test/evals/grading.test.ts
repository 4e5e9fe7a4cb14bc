import type { Verdict } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { gradeRun, resultOf } from '../../src/evals/results.ts';
import { judgeFor } from '../../src/evals/judges.ts';
import type { EvalExecutionRecord, EvalRunRecord } from '../../src/evals/store.ts';

const run = { minPass: 3 } as Pick<EvalRunRecord, 'minPass'>;

const replay = (caseId: string, attempt: number, verdict: Verdict | null, reasoning = `${verdict} ${attempt}`): EvalExecutionRecord => ({
  id: `exe_${caseId}_${attempt}`,
  runId: 'run_1',
  caseId,
  attempt,
  agent: 'support',
  judge: null,
  status: verdict ? 'done' : 'pending',
  leaseOwner: null,
  leaseId: null,
  leaseUntil: null,
  verdict,
  reasoning: verdict ? reasoning : null,
  replayChatId: verdict ? `chat_${caseId}_${attempt}` : null,
  tokens: { input: 10, output: 2 },
  judgeTokens: { input: 0, output: 0 },
  finishedAt: null,
  reportSeq: null,
});

const none = { override: undefined, baseline: null };

describe("a case's result from its replays", () => {
  it('passes with at least min_pass passing replays, and shows k/N', () => {
    const result = resultOf(run, [replay('a', 1, 'pass'), replay('a', 2, 'fail'), replay('a', 3, 'pass'), replay('a', 4, 'pass')], none);
    expect(result).toMatchObject({ verdict: 'pass', flaky: false, repeats: { passed: 3, total: 4 }, reasoning: 'pass 1' });
    expect(result.tokens).toEqual({ input: 40, output: 8 });
  });

  it('fails as flaky with some but fewer than min_pass passes, and that is no regression even after a live pass', () => {
    const result = resultOf(run, [replay('a', 1, 'pass'), replay('a', 2, 'fail'), replay('a', 3, 'error')], { ...none, baseline: 'pass' });
    expect(result).toMatchObject({ verdict: 'fail', flaky: true, regression: false, reasoning: 'fail 2', replay_chat_id: 'chat_a_2' });
  });

  it('is an error only when every replay errored; a failure that passed on live is a regression', () => {
    expect(resultOf(run, [replay('a', 1, 'error'), replay('a', 2, 'error')], none)).toMatchObject({ verdict: 'error' });
    expect(resultOf(run, [replay('a', 1, 'error'), replay('a', 2, 'fail')], { ...none, baseline: 'pass' })).toMatchObject({
      verdict: 'fail',
      regression: true,
    });
  });

  it("follows a person's override, keeping the grader's verdict beside it", () => {
    const override = { runId: 'run_1', caseId: 'a', verdict: 'fail' as const, by: 'ada@example.com', at: '2026-03-02T08:00:00.000Z' };
    const result = resultOf({ minPass: 1 }, [replay('a', 1, 'pass')], { override, baseline: 'pass' });
    expect(result).toMatchObject({ verdict: 'fail', graded: 'pass', regression: true, override: { by: 'ada@example.com' } });
  });
});

describe("a run's results and counts", () => {
  it('counts only cases whose every replay is done, and lists regressions, failures, errors, then passes', () => {
    const executions = [
      replay('pass', 1, 'pass'),
      replay('err', 1, 'error'),
      replay('fail', 1, 'fail'),
      replay('regressed', 1, 'fail'),
      replay('running', 1, 'pass'),
      replay('running', 2, null),
    ];
    const { results, counts } = gradeRun({ minPass: 1 } as EvalRunRecord, executions, [], new Map([['regressed', 'pass' as Verdict]]));
    expect(results.map((r) => r.case_id)).toEqual(['regressed', 'fail', 'err', 'pass']);
    expect(counts).toEqual({ cases: 5, done: 4, passed: 1, failed: 2, errors: 1, regressions: 1, tokens: { input: 60, output: 12 } });
  });
});

describe('the judge of an agent', () => {
  const judges = ['anthropic:claude-sonnet-4-5', 'openai:gpt-4.1-mini'];

  it('is the first configured judge of another family than the agent', () => {
    expect(judgeFor('openai:gpt-4.1-mini', judges)).toBe('anthropic:claude-sonnet-4-5');
    expect(judgeFor('anthropic:claude-haiku-4-5', judges)).toBe('openai:gpt-4.1-mini');
    expect(judgeFor('scripted', judges)).toBe('anthropic:claude-sonnet-4-5');
  });

  it('is the deterministic grader when no judge is configured', () => {
    expect(judgeFor('openai:gpt-4.1-mini', [])).toBeNull();
  });

  it('refuses a run when every judge is of the agent family, naming the model and the judges', () => {
    expect(() => judgeFor('anthropic:claude-haiku-4-5', ['anthropic:claude-sonnet-4-5'])).toThrow(
      expect.objectContaining({
        code: 'judge_family_conflict',
        details: { agent_model: 'anthropic:claude-haiku-4-5', judges: ['anthropic:claude-sonnet-4-5'] },
      }),
    );
  });
});
