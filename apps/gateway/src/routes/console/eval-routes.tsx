import type { Request, Router } from 'express';
import { formField, type PageKit } from './page-kit.tsx';
import { pageQueryOf, queryValue } from './page-query.ts';
import { EvalCasesPage } from './pages/eval-cases.tsx';
import { EvalRunPage } from './pages/eval-run.tsx';
import { EvalRunsPage } from './pages/eval-runs.tsx';
import { agentEvalsPath, evalRunPath } from './paths.ts';
import { sendPage } from './render.tsx';
import { environmentTrends, liveCaseHistories, stripResults } from './trends.ts';

/** The visitor's messages as typed, one per line; blank lines are not messages. */
const turnsField = (req: Request) =>
  formField(req, 'turns')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The override form's verdict: `clear` gives the grader's back; core refuses anything but pass or fail. */
const overrideVerdict = (req: Request) => {
  const verdict = formField(req, 'verdict');
  return verdict === 'clear' ? null : (verdict as 'pass' | 'fail');
};

/**
 * Eval cases and runs in the console: an agent's cases (add, edit and remove those added by hand), the workspace's
 * runs, and a run's results with a person's pass or fail. Core decides who may and checks every value.
 */
export function evalRoutes(routes: Router, { core, session, page, viewer, workspaceForm }: PageKit): void {
  routes.get(
    '/w/:workspace/agents/:agent/evals',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const agent = String(req.params.agent);
      const caller = session.caller(req);
      const query = pageQueryOf(req);
      // Core checks the query as the API's: a bad value answers as a page saying which.
      const { cases, next_cursor } = await core.evals.cases.list.query({ workspace, agent, ...query }, caller);
      const flagIds = cases.flatMap((c) => ('flag_id' in c.origin ? [c.origin.flag_id] : []));
      const [flags, histories] = await Promise.all([
        core.flags.many.query({ workspace, ids: flagIds }, caller),
        liveCaseHistories(
          core,
          workspace,
          cases.map((c) => c.id),
          caller,
        ),
      ]);
      const flaggedReplies = new Map(flags.map((f) => [f.id, { chat_id: f.chat_id, message_id: f.message_id }]));
      sendPage(
        res,
        <EvalCasesPage
          viewer={signedIn}
          workspace={workspace}
          agent={agent}
          cases={cases}
          page={{ limit: queryValue(req, 'limit'), paged: query.cursor !== undefined, nextCursor: next_cursor }}
          flaggedReplies={flaggedReplies}
          histories={histories}
          slots={stripResults}
        />,
      );
    }),
  );
  routes.post(
    '/w/:workspace/agents/:agent/evals/cases',
    workspaceForm(async (req, workspace) => {
      const agent = String(req.params.agent);
      const created = await core.evals.cases.create.mutate(
        { workspace, agent, turns: turnsField(req), expected: formField(req, 'expected') },
        session.caller(req),
      );
      return `${agentEvalsPath(workspace, agent)}#${encodeURIComponent(created.id)}`;
    }),
  );
  routes.post(
    '/w/:workspace/agents/:agent/evals/cases/:id',
    workspaceForm(async (req, workspace) => {
      const updated = await core.evals.cases.update.mutate(
        { workspace, id: String(req.params.id), turns: turnsField(req), expected: formField(req, 'expected') },
        session.caller(req),
      );
      return `${agentEvalsPath(workspace, updated.agent)}#${encodeURIComponent(updated.id)}`;
    }),
  );
  routes.post(
    '/w/:workspace/agents/:agent/evals/cases/:id/remove',
    workspaceForm(async (req, workspace) => {
      await core.evals.cases.remove.mutate({ workspace, id: String(req.params.id) }, session.caller(req));
      return agentEvalsPath(workspace, String(req.params.agent));
    }),
  );

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
