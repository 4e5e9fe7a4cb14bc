import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { marked, type Tokens } from 'marked';
import { caseQuestion } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { type RunReportInput, renderRunReport, runVerdict, runVerdictText } from '../src/index.ts';
import { baseline, replayed, result, run } from './run-fixtures.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}.md`, import.meta.url);
const url = 'http://localhost:8080/w/acme/evals/run_07';

/**
 * Compares the report byte for byte with its golden file. `UPDATE_GOLDEN=1` rewrites the file instead: review
 * the diff of the fixtures before committing it.
 */
function expectGolden(name: string, input: Omit<RunReportInput, 'workspace' | 'url'>): string {
  const report = renderRunReport({ workspace: 'acme', url, ...input });
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(fixture(name), report);
  else if (!existsSync(fixture(name))) throw new Error(`no golden file ${name}.md: run with UPDATE_GOLDEN=1 and review it`);
  expect(report).toBe(readFileSync(fixture(name), 'utf8'));
  return report;
}

const headings = (report: string, depth: number) =>
  marked
    .lexer(report)
    .filter((t): t is Tokens.Heading => t.type === 'heading' && t.depth === depth)
    .map((t) => t.text);

describe('run report golden files', () => {
  it('every case passes: the verdict in the title, the counts beside live, the passes folded away', () => {
    const results = [result(), result({ case_id: 'case_02', reasoning: 'It asked for the order number.' })];
    const report = expectGolden('run-all-pass', {
      run: run(results),
      baseline: baseline(),
      cases: { case_01: replayed(), case_02: replayed() },
    });
    expect(report.split('\n')[0]).toBe('# Evals of `acme` on `feat-refund-flow`, v4: passed');
    expect(headings(report, 2)).toEqual(['2 passes', 'Models']);
    expect(report).toContain('<details><summary>2 passing cases</summary>');
    // Live ran 5 cases, this run 2: the counts compare the 2 both ran, and the 3 others are said apart.
    expect(report).toContain('2 cases here, 5 in live: compared on the 2 both ran; 3 only in live.');
    expect(report).toContain('| Cases both ran | 2 | 2 |');
    expect(report).toContain('| Passed | 2 | 2 |');
    expect(report).toContain('| Only in live |  | 3 |');
    expect(report).toContain('judge `anthropic:claude-sonnet-4-5`');
    expect(report.trimEnd().split('\n').at(-1)).toBe(`[The run in the console](${url})`);
  });

  it('regressions first, then failures (flaky as k/N), errors, overrides with who and when, passes last', () => {
    const hostileTurn = 'How do I run ```rm -rf```?\n# Not a heading\n</details><script>alert(1)</script>';
    const hostileReply = 'Use:\n````sh\nrm -rf /\n````';
    const hostileReasoning = 'The reply says **yes** to `rm -rf` and links [here](http://x) <b>& more</b>|~~ok~~';
    const results = [
      result({
        case_id: 'case_02',
        question: caseQuestion([hostileTurn]),
        verdict: 'fail',
        graded: 'fail',
        regression: true,
        reasoning: hostileReasoning,
        repeats: { passed: 0, total: 3 },
      }),
      result({
        case_id: 'case_07',
        verdict: 'fail',
        graded: 'pass',
        regression: true,
        repeats: { passed: 3, total: 3 },
        override: { verdict: 'fail', by: 'sam@example.com', at: '2026-06-01T12:09:00.000Z' },
      }),
      result({
        case_id: 'case_03',
        verdict: 'fail',
        graded: 'fail',
        baseline: 'fail',
        reasoning: 'It promised a refund after 40 days.',
        repeats: { passed: 0, total: 3 },
      }),
      result({
        case_id: 'case_04',
        verdict: 'fail',
        graded: 'fail',
        flaky: true,
        reasoning: 'It forgot the store credit.',
        repeats: { passed: 1, total: 3 },
      }),
      result({
        case_id: 'case_05',
        verdict: 'error',
        graded: 'error',
        baseline: null,
        reasoning: 'openai answered 429 Too Many Requests after 4 tries: rate limit reached',
        replay_chat_id: null,
        repeats: { passed: 0, total: 3 },
        tokens: { input: 0, output: 0 },
      }),
      result({
        case_id: 'case_06',
        graded: 'fail',
        reasoning: 'It did not offer store credit.',
        repeats: { passed: 0, total: 3 },
        override: { verdict: 'pass', by: 'sam@example.com', at: '2026-06-01T12:08:00.000Z' },
      }),
      result({ case_id: 'case_01', repeats: { passed: 3, total: 3 } }),
    ];
    const cases = {
      case_01: replayed(),
      case_02: replayed({
        turns: [hostileTurn],
        replies: [hostileReply],
        expected: 'Never suggest `rm -rf /`.\n\n## Say instead\n- ask first',
      }),
      case_03: replayed(),
      case_04: replayed(),
      case_05: replayed({ replies: ['Hello! How can I help with your order?'] }),
      case_06: replayed(),
      case_07: replayed(),
    };
    const report = expectGolden('run-regressions', {
      run: run(results, { repeat: 3, min_pass: 2, skipped: 1, skipped_cases: [{ case_id: 'case_09', agent: 'billing' }] }),
      baseline: baseline(),
      cases,
    });
    expect(report.split('\n')[0]).toBe('# Evals of `acme` on `feat-refund-flow`, v4: 2 regressions');
    expect(headings(report, 2)).toEqual(['2 regressions', '2 failures', '1 error', '2 passes', '1 skipped case', 'Models']);
    // Each case is named by its question, its id beside it.
    expect([...report.matchAll(/^### “[^\n]*” `(case_\d+)`/gm)].map((m) => m[1])).toEqual([
      'case_02',
      'case_07',
      'case_03',
      'case_04',
      'case_05',
    ]);
    expect(report).toContain(
      '### “Can I still return shoes I bought three weeks ago?” `case_04` · agent `support` · flaky: 1/3 replays passed, 2 needed',
    );
    expect(report).toContain('| Failed | 4 (1 flaky) | 1 |');
    expect(report).toContain('**Overridden to fail** by `sam@example.com`, 2026-06-01 12:09:00 UTC; the grader said pass.');
    expect(report).toContain(
      '- “Can I still return shoes I bought three weeks ago?” `case_06` (agent `support`, 0/3 replays passed, overridden by `sam@example.com`, the grader said fail)',
    );
    expect(report).toContain('**Error:** openai answered 429');
    expect(report).toContain('_No reply to the last turn: the replay stopped there._');

    // Read back by a CommonMark parser: the customer's and the model's text is shown as written, never as markup.
    const tokens = marked.lexer(report);
    const blocks = tokens.filter((t): t is Tokens.Code => t.type === 'code').map((t) => t.text);
    expect(blocks).toContain(`Visitor:\n${hostileTurn.replace(/^/gm, '  ')}\n\nAgent:\n${hostileReply.replace(/^/gm, '  ')}`);
    expect(blocks).toContain('Never suggest `rm -rf /`.\n\n## Say instead\n- ask first');
    expect(tokens.filter((t) => t.type === 'html').map((t) => (t as Tokens.HTML).text.trim())).toEqual([
      '<details><summary>2 passing cases</summary>',
      '</details>',
    ]);
    // The judge's sentence: plain text and escapes, no link (a bare URL is broken invisibly), read back whole.
    const judged = tokens.find((t): t is Tokens.Paragraph => t.type === 'paragraph' && t.raw.includes('The reply says'));
    const [label, ...words] = judged?.tokens ?? [];
    expect(label).toMatchObject({ type: 'strong', text: 'Judge (`anthropic:claude-sonnet-4-5`):' });
    expect(new Set(words.map((t) => t.type))).toEqual(new Set(['text', 'escape']));
    expect(
      words
        .map((t) => ('text' in t ? t.text : ''))
        .join('')
        .replace(/\u200b/g, ''),
    ).toBe(` ${hostileReasoning}`);
  });

  it('the deterministic grader is named wherever a judge would be, and its error says what the case needs', () => {
    const scripted = { judge: null, tokens: { input: 0, output: 0 } };
    const results = [
      result({ case_id: 'case_01', ...scripted, reasoning: 'The last reply contains "30 days" and "store credit".' }),
      result({
        case_id: 'case_02',
        verdict: 'fail',
        graded: 'fail',
        ...scripted,
        reasoning: 'The last reply lacks "store credit".',
      }),
      result({ case_id: 'case_03', verdict: 'error', graded: 'error', ...scripted, reasoning: 'needs a quoted phrase or a judge model' }),
    ];
    const report = expectGolden('run-deterministic', {
      run: run(results, { grader: 'deterministic', agent_models: ['scripted'], tokens: { input: 0, output: 0 } }),
      baseline: baseline({ grader: 'deterministic', tokens: { input: 0, output: 0 } }),
      cases: { case_01: replayed(), case_02: replayed(), case_03: replayed({ expected: 'Be nice about returns.' }) },
    });
    expect(report.split('\n')[0]).toBe('# Evals of `acme` on `feat-refund-flow`, v4: failed');
    expect(report).toContain('- Grader: the **deterministic grader**, as no judge model is configured');
    expect(report).toContain('**Deterministic grader:** The last reply lacks "store credit".');
    expect(report).toContain('**Error:** needs a quoted phrase or a judge model');
    expect(report).not.toContain('Judge (');
  });

  it('without a finished live run: this run alone, and a line saying nothing counts as a regression', () => {
    const results = [
      result({ baseline: null, verdict: 'fail', graded: 'fail', reasoning: 'It promised a refund.' }),
      result({ case_id: 'case_02', baseline: null }),
    ];
    const report = expectGolden('run-no-baseline', {
      run: run(results, { baseline_run_id: null }),
      baseline: null,
      cases: { case_01: replayed(), case_02: replayed() },
    });
    expect(report).toContain('| | This run |\n|---|---:|\n| Passed | 1 of 2 |');
    expect(report).toContain('No finished run on live to compare with, so no case counts as a regression.');
    expect(headings(report, 2)).toEqual(['1 failure', '1 pass', 'Models']);
  });

  it('a cancelled run: said in the title, with the cases that never ran and a deleted case', () => {
    const results = [
      result({ case_id: 'case_01' }),
      result({ case_id: 'case_02', verdict: 'fail', graded: 'fail', reasoning: 'It said 60 days.' }),
    ];
    const cancelled = run(results, { status: 'cancelled', cases: 5, finished_at: '2026-06-01T12:01:30.000Z' });
    const report = expectGolden('run-cancelled', { run: cancelled, baseline: baseline(), cases: { case_01: replayed() } });
    // A deleted case reads the same whether it is left out or comes with no turns.
    const gone = { case_01: replayed(), case_02: replayed({ turns: [], replies: [], expected: '' }) };
    expect(renderRunReport({ workspace: 'acme', url, run: cancelled, baseline: baseline(), cases: gone })).toBe(report);
    expect(report.split('\n')[0]).toBe('# Evals of `acme` on `feat-refund-flow`, v4: cancelled');
    expect(report).toContain('3 cases did not run: the run was cancelled.');
    expect(report).toContain('cancelled 2026-06-01 12:01:30 UTC');
    expect(report).toContain('_The case was deleted: its turns and expected outcome are gone._');
  });
});

describe('run verdict', () => {
  const counts = { status: 'finished', finished: true, failed: 0, errors: 0, regressions: 0 } as const;
  it('passes only when finished with no failure or error; regressions outrank failures; cancelled never passes', () => {
    expect(runVerdict(counts)).toBe('passed');
    expect(runVerdict({ ...counts, errors: 1 })).toBe('failed');
    expect(runVerdict({ ...counts, failed: 3, regressions: 2 })).toBe('regressed');
    expect(runVerdictText({ ...counts, failed: 3, regressions: 1 })).toBe('1 regression');
    expect(runVerdict({ ...counts, status: 'cancelled' })).toBe('cancelled');
    expect(runVerdict({ ...counts, status: 'running', finished: false })).toBe('running');
  });
});
