import type { GraderAgreementView } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { renderPrComment, renderRunReport } from '../src/index.ts';
import { baseline, replayed, result, run } from './run-fixtures.ts';

const url = 'http://localhost:8080/w/acme/evals/run_07';
const judge = 'anthropic:claude-sonnet-4-5';

/** A grader's figures as core serves them; the interval is 18 of 25's. */
const grader = (changes: Partial<GraderAgreementView> = {}): GraderAgreementView => ({
  grader: judge,
  reviewed: 25,
  agreed: 18,
  agreement: 0.72,
  interval: { low: 0.5242, high: 0.8572 },
  grader_pass_person_fail: 4,
  grader_fail_person_pass: 3,
  ...changes,
});
const line = `Judge ${judge} agrees with people on 72 % of 25 reviewed results (95 % CI 52–86 %): read its failures with care.`;

const report = (graders: GraderAgreementView[], grader = judge) =>
  renderRunReport({
    workspace: 'acme',
    url,
    run: run([result()], { grader }),
    baseline: baseline(),
    cases: { case_01: replayed() },
    graders,
  });
const comment = (graders: GraderAgreementView[]) =>
  renderPrComment({ state: 'finished', workspace: 'acme', url, run: run([result()]), baseline: baseline(), graders });

describe("a run's graders measured against people", () => {
  it('the report and the pull request comment say in one line when a grader of the run agrees below 80 % over 20 reviews or more', () => {
    expect(report([grader()]).split('\n')).toContain(line);
    expect(comment([grader()]).split('\n')).toContain(line);
    const edge = grader({ reviewed: 20, agreed: 15, agreement: 0.75, interval: { low: 0.531, high: 0.888 } });
    expect(report([edge])).toContain(`on 75 % of 20 reviewed results (95 % CI 53–89 %)`);
  });

  it('says nothing at 80 % or more, under 20 reviews, or of a grader that did not grade this run', () => {
    const quiet = [
      grader({ reviewed: 20, agreed: 16, agreement: 0.8 }),
      grader({ reviewed: 19, agreed: 9, agreement: 9 / 19 }),
      grader({ grader: 'openai:gpt-4.1' }),
    ];
    for (const g of quiet) {
      expect(report([g])).not.toContain('agrees with people');
      expect(comment([g])).not.toContain('agrees with people');
    }
  });

  it('names the deterministic grader as such', () => {
    expect(report([grader({ grader: 'deterministic' })], 'deterministic')).toContain(
      'The deterministic grader agrees with people on 72 % of 25 reviewed results',
    );
  });

  it("keeps a grader's name from pinging anyone or linking anywhere on GitHub", () => {
    const hostile = '@ada:https://evil.example/x';
    const markdown = report([grader({ grader: hostile })], hostile);
    expect(markdown).toContain('Judge @\u200bada:https:\u200b//evil.example/x agrees with people');
  });
});
