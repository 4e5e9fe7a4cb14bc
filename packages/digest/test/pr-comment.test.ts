import { marked, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { githubBodyLimit } from '@svc/domain';
import { type PrCommentInput, prCommentMarker, renderPrComment } from '../src/index.ts';
import { expectGolden } from './golden.ts';
import { baseline, result, run } from './run-fixtures.ts';

const url = 'http://localhost:8080/w/acme/evals/run_07';
const commit = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';

const golden = (name: string, input: PrCommentInput) => expectGolden(`pr-${name}`, renderPrComment(input));

const headings = (markdown: string) =>
  marked
    .lexer(markdown)
    .filter((t): t is Tokens.Heading => t.type === 'heading')
    .map((t) => t.text);

/** One case of each kind a reviewer tells apart, on a run replaying each case three times. */
const mixed = [
  result({
    case_id: 'case_02',
    question: 'Can I get a refund after 40 days?',
    verdict: 'fail',
    graded: 'fail',
    regression: true,
    reasoning: 'It promised a refund after 40 days.',
  }),
  result({ case_id: 'case_03', verdict: 'fail', graded: 'fail', baseline: 'fail', reasoning: 'It said 60 days.' }),
  result({
    case_id: 'case_04',
    verdict: 'fail',
    graded: 'fail',
    flaky: true,
    repeats: { passed: 1, total: 3 },
    reasoning: 'It forgot the store credit.',
  }),
  // A case removed since the run: named by its id alone.
  result({
    case_id: 'case_05',
    question: '',
    verdict: 'error',
    graded: 'error',
    baseline: null,
    reasoning: 'openai answered 429 after 4 tries',
  }),
  result({ case_id: 'case_06', baseline: 'fail', reasoning: 'It offered store credit after 30 days.' }),
  result({ case_id: 'case_01' }),
].map((r) => ({ ...r, repeats: r.flaky ? r.repeats : { passed: r.verdict === 'pass' ? 3 : 0, total: 3 } }));

describe('pull request comment golden files', () => {
  it('running: the marker first, where it runs, and a link to the run', () => {
    const comment = golden('running', {
      state: 'running',
      workspace: 'acme',
      environment: 'feat-refund-flow',
      version: { id: 'ver_04', number: 4 },
      url,
      commit,
    });
    expect(comment.split('\n')[0]).toBe(prCommentMarker);
    expect(comment).toContain('## ⏳ svc evals: running');
    expect(comment).toContain('environment `feat-refund-flow` · version v4 (`ver_04`) · commit `9f8e7d6`');
    expect(comment).toContain(`[The run in the console](${url})`);
  });

  it('finished: the verdict first, counts and tokens against live, regressions, fixed, still failing, flaky, models, the table folded', () => {
    const comment = golden('finished', {
      state: 'finished',
      workspace: 'acme',
      run: run(mixed, { trigger: 'pull_request', created_by: 'GitHub App', repeat: 3, min_pass: 2 }),
      baseline: baseline(),
      url,
      commit,
    });
    const lines = comment.split('\n');
    expect(lines.slice(0, 2)).toEqual([prCommentMarker, '## ❌ svc evals: 1 regression']);
    expect(headings(comment)).toEqual(['❌ svc evals: 1 regression', '1 regression', '1 fixed', '2 still failing', '1 flaky', 'Models']);
    expect(comment).toContain('| Tokens | 7,440 in, 516 out | 5,900 in, 400 out |');
    // One case is new since live's run: the rate and the counts compare the 5 both ran, the new one said apart.
    expect(comment).toContain('Pass rate on the 5 cases both ran: live 60 % (v3) → this branch 40 %, −20 points.');
    expect(comment).toContain('6 cases here, 5 in live: compared on the 5 both ran; 1 new.');
    expect(comment).toContain('| Passed | 2 | 3 |');
    expect(comment).toContain('| New cases | 1: 0 passed |  |');
    // Each case is named by its question, its id beside it.
    expect(comment).toContain(
      '- “Can I get a refund after 40 days?” `case_02` (agent `support`, 0/3 replays passed): It promised a refund after 40 days.',
    );
    expect(comment).toContain(
      '- “Can I still return shoes I bought three weeks ago?” `case_06` (agent `support`, failed on live, 3/3 replays passed): It offered store credit after 30 days.',
    );
    expect(comment).toContain('- `case_05` (agent `support`, error, not run on live, 0/3 replays passed): openai answered 429');
    expect(comment).toContain('| “Can I get a refund after 40 days?” `case_02` | `support` | fail (regression) |');
    expect(comment).toContain(
      '- “Can I still return shoes I bought three weeks ago?” `case_04` (agent `support`, flaky: 1/3 replays passed, 2 needed)',
    );
    expect(comment).toContain('- Grader: judge `anthropic:claude-sonnet-4-5`');
    // The table holds every case, folded: a reviewer opens it last.
    const html = marked
      .lexer(comment)
      .filter((t) => t.type === 'html')
      .map((t) => (t as Tokens.HTML).text.trim());
    expect(html).toEqual([prCommentMarker, '<details><summary>All 6 cases</summary>', '</details>']);
    const table = marked.lexer(comment).find((t): t is Tokens.Table => t.type === 'table' && t.header[0]?.text === 'Case');
    expect(table?.rows.map((row) => row[0]?.text)).toEqual(
      mixed.map((r) => (r.question ? `“${r.question}” \`${r.case_id}\`` : `\`${r.case_id}\``)),
    );
    expect(lines.at(-2)).toBe(`[The run in the console](${url})`);
  });

  it('finished, passing, with the deterministic grader and no live run to compare with', () => {
    const scripted = [
      result({ judge: null, baseline: null, reasoning: 'The last reply contains "30 days".', tokens: { input: 0, output: 0 } }),
    ];
    const comment = golden('passed-deterministic', {
      state: 'finished',
      workspace: 'acme',
      run: run(scripted, { grader: 'deterministic', agent_models: ['scripted'], baseline_run_id: null }),
      baseline: null,
      url,
    });
    expect(comment.split('\n')[1]).toBe('## ✅ svc evals: passed');
    expect(comment).toContain('No finished run on live to compare with');
    expect(comment).toContain('- Grader: the **deterministic grader**');
    expect(headings(comment)).toEqual(['✅ svc evals: passed', 'Models']);
  });

  it('a cancelled run: said first, with the cases that never ran', () => {
    const comment = golden('cancelled', {
      state: 'finished',
      workspace: 'acme',
      run: run([result()], { status: 'cancelled', cases: 4 }),
      baseline: baseline(),
      url,
    });
    expect(comment.split('\n')[1]).toBe('## ⚪ svc evals: cancelled');
    expect(comment).toContain('3 cases did not run: the run was cancelled.');
  });

  it('fork: not deployed, why, and how a member runs it', () => {
    const comment = golden('fork', { state: 'fork', workspace: 'acme', pull_number: 12, head: 'mallory:feat/refunds' });
    expect(comment.split('\n')[0]).toBe(prCommentMarker);
    expect(comment).toContain('svc did not deploy it');
    const block = marked.lexer(comment).find((t): t is Tokens.Code => t.type === 'code');
    expect(block?.text.split('\n').map((l) => l.split(/\s+#/)[0]?.trim())).toEqual(['gh pr checkout 12', 'svc push', 'svc eval']);
  });

  it('a manifest error: every issue with its file and path, nothing deployed', () => {
    const comment = golden('manifest-error', {
      state: 'failed',
      stage: 'manifest',
      workspace: 'acme',
      message: 'agents/support/agent.yaml: tools[0].url: expected an https URL',
      issues: [
        { file: 'agents/support/agent.yaml', path: 'tools[0].url', message: 'expected an https URL' },
        { file: 'svc.yaml', path: '', message: 'workspace `acme` expected, found <b>other</b>' },
      ],
      environment: 'feat-refund-flow',
      commit,
    });
    expect(comment).toContain('## ❌ svc evals: the manifest has errors');
    expect(comment).toContain('- `agents/support/agent.yaml` at `tools[0].url`: expected an https URL');
    expect(comment).toContain('- `svc.yaml`: workspace \\`acme\\` expected, found \\<b\\>other\\</b\\>');
    expect(marked.lexer(comment).filter((t) => t.type === 'html')).toHaveLength(1);
  });

  it('a failed deploy and a run that could not finish: their message, shown as written', () => {
    const deploy = golden('deploy-failed', {
      state: 'failed',
      stage: 'deploy',
      workspace: 'acme',
      message: 'secret `SHOP_TOKEN` is not set on environment `feat-refund-flow`\n```\n</details>',
      environment: 'feat-refund-flow',
      commit,
    });
    const block = marked.lexer(deploy).find((t): t is Tokens.Code => t.type === 'code');
    expect(block?.text).toBe('secret `SHOP_TOKEN` is not set on environment `feat-refund-flow`\n```\n</details>');

    const failedRun = golden('run-failed', {
      state: 'failed',
      stage: 'run',
      workspace: 'acme',
      message: 'The run was cancelled by ada@example.com.',
      environment: 'feat-refund-flow',
      version: { id: 'ver_04', number: 4 },
      url,
    });
    expect(failedRun).toContain('## ❌ svc evals: the run did not finish');
    expect(failedRun).toContain('The run was cancelled by ada@example.com.');
    expect(failedRun).toContain(`[The run in the console](${url})`);
  });
});

describe('pull request comment under GitHub limit', () => {
  const long = 'It said the refund window is 60 days, '.repeat(7);
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      result({
        case_id: `case_${String(i).padStart(5, '0')}`,
        ...(i % 3 === 0 ? { verdict: 'fail', graded: 'fail', regression: true } : {}),
        reasoning: long,
      }),
    );

  it('a huge run: the table is cut with a link to the run, the lists are whole', () => {
    const results = many(300);
    const comment = golden('huge-run', {
      state: 'finished',
      workspace: 'acme',
      run: run(results),
      baseline: baseline({ cases: 300, done: 300, passed: 300, failed: 0 }),
      url,
    });
    expect(comment.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(comment).toMatch(new RegExp(`Showing \\d+ of 300 cases: \\[every case in the console\\]\\(${url}\\)\\.`));
    expect(comment).toContain('## ❌ svc evals: 100 regressions');
    expect(comment.match(/^- “[^\n]*” `case_\d+` /gm)).toHaveLength(100);
    expect(comment.trimEnd().split('\n').at(-1)).toBe(`[The run in the console](${url})`);
  });

  it('a run whose lists alone are too long: the table gives way to a link, each list is cut and says how many it leaves out', () => {
    const comment = renderPrComment({ state: 'finished', workspace: 'acme', run: run(many(3_000)), baseline: baseline(), url });
    expect(comment.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(comment.length).toBeGreaterThan(githubBodyLimit - 2_000);
    expect(comment).toContain(`Too many cases for a comment: [every case in the console](${url}).`);
    const shown = comment.match(/^- “[^\n]*” `case_\d+` /gm)?.length ?? 0;
    expect(comment).toContain(`- … and ${(1_000 - shown).toLocaleString('en-US')} more cases: [every case in the console](${url})`);
    expect(headings(comment)).toContain('Models');
  });

  it('thousands of manifest issues: the first ones, and how many more', () => {
    const issues = Array.from({ length: 2_000 }, (_, i) => ({ file: `agents/a${i}/agent.yaml`, path: 'model', message: long }));
    const comment = renderPrComment({ state: 'failed', stage: 'manifest', workspace: 'acme', message: 'invalid', issues });
    expect(comment.length).toBeLessThanOrEqual(githubBodyLimit);
    const shown = comment.match(/^- `agents\//gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(10);
    expect(comment).toContain(`- … and ${(2_000 - shown).toLocaleString('en-US')} more issues:`);
  });
});
