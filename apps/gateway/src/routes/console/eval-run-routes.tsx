import type { Request, Router } from 'express';
import { formField, type PageKit } from './page-kit.tsx';
import { pageQueryOf, queryValue } from './page-query.ts';
import { EvalRunPage } from './pages/eval-run.tsx';
import { EvalRunsPage } from './pages/eval-runs.tsx';
import { evalRunPath } from './paths.ts';
import { sendPage } from './render.tsx';
import { environmentTrends } from './trends.ts';

/** The override form's verdict: `clear` gives the grader's back; core refuses anything but pass or fail. */
const overrideVerdict = (req: Request) => {
  const verdict = formField(req, 'verdict');
  return verdict === 'clear' ? null : (verdict as 'pass' | 'fail');
};

/** The workspace's eval runs in the console: the list with its trends, a run's results, and a person's pass or fail. */
export function evalRunRoutes(routes: Router, { core, session, page, viewer, workspaceForm }: PageKit): void {
  routes.get(
    '/w/:workspace/evals',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const environment = queryValue(req, 'environment');
      const caller = session.caller(req);
      // Core checks the query as the API's: a bad value answers as a page saying which.
      const [{ runs, next_cursor }, graders, { trends, live }] = await Promise.all([
        core.evals.runs.list.query({ workspace, environment, ...pageQueryOf(req) }, caller),
        core.evals.graders.query({ workspace }, caller),
        environmentTrends(core, workspace, caller, environment),
      ]);
      sendPage(
        res,
        <EvalRunsPage
          viewer={signedIn}
          workspace={workspace}
          runs={runs}
          environment={environment}
          nextCursor={next_cursor}
          trends={trends}
          live={live}
          graders={graders}
        />,
      );
    }),
  );
  routes.get(
    '/w/:workspace/evals/:id',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const caller = session.caller(req);
      const run = await core.evals.runs.get.query({ workspace, id: String(req.params.id) }, caller);
      const [baseline, cases] = await Promise.all([
        run.baseline_run_id ? core.evals.runs.get.query({ workspace, id: run.baseline_run_id }, caller) : null,
        core.evals.cases.ofRun.query({ workspace, id: run.id }, caller),
      ]);
      sendPage(
        res,
        <EvalRunPage viewer={signedIn} workspace={workspace} run={run} baseline={baseline} cases={new Map(cases.map((c) => [c.id, c]))} />,
      );
    }),
  );
  routes.post(
    '/w/:workspace/evals/:id/results/:case/override',
    workspaceForm(async (req, workspace) => {
      const id = String(req.params.id);
      const caseId = String(req.params.case);
      await core.evals.runs.override.mutate({ workspace, id, case_id: caseId, verdict: overrideVerdict(req) }, session.caller(req));
      return `${evalRunPath(workspace, id)}#${encodeURIComponent(caseId)}`;
    }),
  );
}
