import type { EvalRunView, GraderAgreementListView } from '@svc/domain';
import { GraderAgreement } from '../components/grader-agreement.tsx';
import { Layout } from '../components/layout.tsx';
import { PassRateTrend } from '../components/pass-rate-trend.tsx';
import { RunCounts, RunVerdict } from '../components/run-verdict.tsx';
import { When } from '../components/when.tsx';
import { evalRunPath, evalRunsPath, withQuery } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface EvalRunsPageProps {
  viewer: Viewer;
  workspace: string;
  runs: EvalRunView[];
  /** The environment the list is narrowed to, if any. */
  environment?: string;
  nextCursor: string | null;
  /** Each environment's finished runs, oldest first, for its pass rate trend. */
  trends: { environment: string; runs: EvalRunView[] }[];
  /** Live's latest finished run. */
  live: EvalRunView | null;
  /** Each grader of the workspace measured against people. */
  graders: GraderAgreementListView;
}

/**
 * A workspace's eval runs, newest first: where each ran, on which version, and how it came out; above them each
 * environment's pass rate, and after them its graders against people.
 */
export function EvalRunsPage({ viewer, workspace, runs, environment, nextCursor, trends, live, graders }: EvalRunsPageProps) {
  const pageLink = (cursor?: string) => withQuery(evalRunsPath(workspace), { environment, cursor });
  return (
    <Layout title={`Eval runs of ${workspace}`} viewer={viewer} workspace={workspace}>
      <h1>Eval runs{environment && <> on {environment}</>}</h1>
      {environment && (
        <p>
          <a href={evalRunsPath(workspace)}>Every environment</a>
        </p>
      )}
      {trends.length > 0 && (
        <section aria-labelledby="pass-rates" className="trends">
          <h2 id="pass-rates">Pass rate of the last finished runs</h2>
          {trends.map((trend) => (
            <PassRateTrend key={trend.environment} workspace={workspace} {...trend} live={live} />
          ))}
        </section>
      )}
      {runs.length ? (
        <table className="stacked runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Environment</th>
              <th>Version</th>
              <th>Status</th>
              <th>Cases</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <td>
                  <a href={evalRunPath(workspace, run.id)}>
                    <code>{run.id}</code>
                  </a>
                  {run.agent && <span className="muted"> ({run.agent})</span>}
                </td>
                <td data-label="Environment">{run.environment}</td>
                <td data-label="Version">v{run.version.number}</td>
                <td data-label="Status">
                  <RunVerdict run={run} />
                </td>
                <td data-label="Cases">
                  <RunCounts run={run} />
                </td>
                <td data-label="Started">
                  <When at={run.created_at} /> by {run.created_by}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">
          No runs yet: <code>svc eval</code> starts one, and so does a publish to live once the workspace has cases.
        </p>
      )}
      <nav className="pager" aria-label="Pages">
        {nextCursor && <a href={pageLink(nextCursor)}>Older runs</a>}
      </nav>
      <GraderAgreement agreement={graders} />
    </Layout>
  );
}
