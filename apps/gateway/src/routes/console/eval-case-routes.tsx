import type { Request, Router } from 'express';
import { formField, type PageKit } from './page-kit.tsx';
import { pageQueryOf, queryValue } from './page-query.ts';
import { EvalCasesPage } from './pages/eval-cases.tsx';
import { agentEvalsPath } from './paths.ts';
import { sendPage } from './render.tsx';
import { liveCaseHistories, stripResults } from './trends.ts';

/** The visitor's messages as typed, one per line; blank lines are not messages. */
const turnsField = (req: Request) =>
  formField(req, 'turns')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** An agent's eval cases in the console: the list with each case's recent results, and the forms for those added by hand. */
export function evalCaseRoutes(routes: Router, { core, session, page, viewer, workspaceForm }: PageKit): void {
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
}
