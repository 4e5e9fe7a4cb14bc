import { sharedCases, sharedCasesText } from '@svc/digest';
import type { EvalCaseView, EvalResultView, EvalRunDetailView, EvalRunView } from '@svc/domain';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { RunVerdict } from '../components/run-verdict.tsx';
import { When } from '../components/when.tsx';
import { agentEvalsPath, chatPath, evalRunPath, evalRunsPath, overridePath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface EvalRunPageProps {
  viewer: Viewer;
  workspace: string;
  run: EvalRunDetailView;
  /** The live run regressions compare with, if there is one. */
  baseline: EvalRunView | null;
  /** The cases the results are of, by id; a case removed since is not among them. */
  cases: Map<string, EvalCaseView>;
}

const verdictLabels = { pass: 'Pass', fail: 'Fail', error: 'Error' } as const;

function ResultVerdict({ result }: { result: EvalResultView }) {
  return (
    <p className="result-head">
      <span className={`verdict ${result.verdict}`}>{verdictLabels[result.verdict]}</span>
      {result.regression && <span className="verdict regression">Regression</span>}
      {result.flaky && <span className="verdict flaky">Flaky</span>}
      <span className="muted">
        {' '}
        {result.repeats.passed}/{result.repeats.total} replays passed
      </span>
    </p>
  );
}

/** Who set the verdict by hand and when, or that the grader's stands; and the buttons that set or clear it. */
function Override({
  workspace,
  runId,
  result,
  csrfToken,
}: {
  workspace: string;
  runId: string;
  result: EvalResultView;
  csrfToken: string;
}) {
  const action = overridePath(workspace, runId, result.case_id);
  const button = (verdict: 'pass' | 'fail' | 'clear', label: string) => (
    <form method="post" action={action}>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="verdict" value={verdict} />
      <button className={verdict === 'clear' ? 'secondary' : undefined}>{label}</button>
    </form>
  );
  return (
    <div className="override">
      {result.override ? (
        <p>
          Set to {verdictLabels[result.override.verdict].toLowerCase()} by {result.override.by} · <When at={result.override.at} /> (graded{' '}
          {verdictLabels[result.graded].toLowerCase()})
        </p>
      ) : (
        <p className="muted">Graded by {result.judge ?? 'the deterministic grader'}.</p>
      )}
      <div className="actions">
        {result.override?.verdict !== 'pass' && button('pass', 'Pass')}
        {result.override?.verdict !== 'fail' && button('fail', 'Fail')}
        {result.override && button('clear', "Give the grader's verdict back")}
      </div>
    </div>
  );
}

/**
 * This run beside the live baseline on the cases both ran (from each result's verdict in the baseline), and a
 * sentence saying when the two ran different cases.
 */
function Counts({ run, baseline }: { run: EvalRunDetailView; baseline: EvalRunView | null }) {
  const shared = baseline && sharedCases(run, run.results, baseline);
  const rows = [
    ['Passed', 'pass'],
    ['Failed', 'fail'],
    ['Errors', 'error'],
  ] as const;
  return (
    <>
      {shared && <p className="shared-cases">{sharedCasesText(shared)}</p>}
      <table className="counts">
        <thead>
          <tr>
            <th />
            <th>This run</th>
            <th>Live baseline</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Cases</th>
            <td>{shared ? shared.shared : run.cases}</td>
            <td>{shared ? shared.shared : '–'}</td>
          </tr>
          {rows.map(([label, verdict]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{shared ? shared.thisRun[verdict] : run.results.filter((r) => r.verdict === verdict).length}</td>
              <td>{shared ? shared.baseline[verdict] : '–'}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Regressions</th>
            <td>{run.regressions}</td>
            <td />
          </tr>
        </tbody>
      </table>
    </>
  );
}

interface ResultsProps {
  title: string;
  results: EvalResultView[];
  /** What the section says when it has no result. */
  empty: string;
  viewer: Viewer;
  workspace: string;
  runId: string;
  cases: Map<string, EvalCaseView>;
}

/** A list of results, each with its case's question, the grader's reasoning, its replay and a person's verdict. */
function Results({ title, results, empty, viewer, workspace, runId, cases }: ResultsProps) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {results.length ? (
        <ol className="results">
          {results.map((result) => {
            const evalCase = cases.get(result.case_id);
            return (
              <li key={result.case_id} id={result.case_id} className={`result ${result.verdict}${result.regression ? ' regression' : ''}`}>
                <ResultVerdict result={result} />
                {result.question && <p className="question">“{result.question}”</p>}
                <p className="meta">
                  <a href={`${agentEvalsPath(workspace, result.agent)}#${encodeURIComponent(result.case_id)}`}>
                    <code>{result.case_id}</code>
                  </a>{' '}
                  · {result.agent}
                  {result.baseline && <> · on live: {verdictLabels[result.baseline].toLowerCase()}</>}
                </p>
                {evalCase && (
                  <p className="expected">
                    <span className="muted">Expected: </span>
                    {evalCase.expected}
                  </p>
                )}
                <p className="reasoning">{result.reasoning}</p>
                {result.replay_chat_id && (
                  <p>
                    <a href={chatPath(workspace, result.replay_chat_id)}>Replay chat</a>
                  </p>
                )}
                <Override workspace={workspace} runId={runId} result={result} csrfToken={viewer.csrfToken} />
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted">{empty}</p>
      )}
    </section>
  );
}

/**
 * A run: its verdict, then what to look at first (regressions, failures and errors, in the order core gives them),
 * then the run's details and counts beside the live baseline's, then the passes.
 */
export function EvalRunPage({ viewer, workspace, run, baseline, cases }: EvalRunPageProps) {
  const failing = run.results.filter((r) => r.verdict !== 'pass');
  const passing = run.results.filter((r) => r.verdict === 'pass');
  const shared = { viewer, workspace, runId: run.id, cases };
  return (
    <Layout title={`Eval run ${run.id}`} viewer={viewer} workspace={workspace}>
      <p>
        <a href={evalRunsPath(workspace)}>Eval runs</a>
      </p>
      <h1>
        Eval run on {run.environment}, v{run.version.number}: <RunVerdict run={run} />
      </h1>
      <Results
        title="Regressions and failures"
        results={failing}
        empty={run.results.length ? 'None: every case done so far passed.' : 'No case is done yet.'}
        {...shared}
      />
      <section aria-label="The run">
        <h2>The run</h2>
        <dl className="run-meta">
          <dt>Run</dt>
          <dd>
            <code>{run.id}</code>
          </dd>
          <dt>Progress</dt>
          <dd>
            {run.done}/{run.cases} cases done{run.skipped > 0 && <>, {run.skipped} skipped</>}
          </dd>
          <dt>Replays</dt>
          <dd>
            {run.repeat} per case, {run.min_pass} to pass
          </dd>
          <dt>Grader</dt>
          <dd>{run.grader}</dd>
          <dt>Agent models</dt>
          <dd>{run.agent_models.join(', ') || '–'}</dd>
          <dt>Tokens</dt>
          <dd>
            {run.tokens.input} in, {run.tokens.output} out
          </dd>
          <dt>Started</dt>
          <dd>
            <When at={run.created_at} /> by {run.created_by} ({run.trigger})
          </dd>
          {run.finished_at && (
            <>
              <dt>Finished</dt>
              <dd>
                <When at={run.finished_at} />
              </dd>
            </>
          )}
          <dt>Baseline</dt>
          <dd>
            {run.baseline_run_id ? (
              <a href={evalRunPath(workspace, run.baseline_run_id)}>
                {baseline ? `live v${baseline.version.number}` : <code>{run.baseline_run_id}</code>}
              </a>
            ) : (
              'none: no live run had finished when this one started'
            )}
          </dd>
        </dl>
        <Counts run={run} baseline={baseline} />
      </section>
      {passing.length > 0 && <Results title="Passes" results={passing} empty="" {...shared} />}
      {run.skipped_cases.length > 0 && (
        <section aria-label="Skipped">
          <h2>Skipped</h2>
          <p className="muted">Cases of agents this version lacks: not run.</p>
          <ul>
            {run.skipped_cases.map((s) => (
              <li key={s.case_id}>
                <a href={`${agentEvalsPath(workspace, s.agent)}#${encodeURIComponent(s.case_id)}`}>
                  <code>{s.case_id}</code>
                </a>{' '}
                · {s.agent}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Layout>
  );
}
