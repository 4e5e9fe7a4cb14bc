import { allowsChange, type EvalCaseView } from '@svc/domain';
import { CaseStrip } from '../components/case-strip.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { Pager } from '../components/pager.tsx';
import { When } from '../components/when.tsx';
import { agentEvalsPath, chatPath, evalCasePath, evalRunsPath, withQuery } from '../paths.ts';
import type { CaseResult } from '../trends.ts';
import { roleIn, type Viewer } from '../viewer.ts';

/** Where a flag's reply is: its case links there. */
export interface FlaggedReply {
  chat_id: string;
  message_id: string;
}

export interface EvalCasesPageProps {
  viewer: Viewer;
  workspace: string;
  agent: string;
  /** A page of the agent's cases, oldest first. */
  cases: EvalCaseView[];
  /** The page's limit as asked, whether it is past the first, and the cursor of the next. */
  page: { limit?: string; paged: boolean; nextCursor: string | null };
  /** The reply of each flag that made one of the cases, by flag id. */
  flaggedReplies: Map<string, FlaggedReply>;
  /** Each case's results in live's last finished runs, oldest first. */
  histories: Map<string, CaseResult[]>;
  /** How many results a strip has room for. */
  slots: number;
}

/** The visitor's messages and the outcome expected, as the add and edit forms take them: one message per line. */
function CaseFields({ idPrefix, turns, expected }: { idPrefix: string; turns?: string[]; expected?: string }) {
  return (
    <>
      <label htmlFor={`${idPrefix}-turns`}>Visitor messages, one per line</label>
      <textarea id={`${idPrefix}-turns`} name="turns" rows={4} required defaultValue={turns?.join('\n')} />
      <label htmlFor={`${idPrefix}-expected`}>Expected outcome</label>
      <textarea id={`${idPrefix}-expected`} name="expected" rows={3} required maxLength={10_000} defaultValue={expected} />
    </>
  );
}

function Origin({
  workspace,
  evalCase,
  flaggedReplies,
}: {
  workspace: string;
  evalCase: EvalCaseView;
  flaggedReplies: Map<string, FlaggedReply>;
}) {
  if ('created_by' in evalCase.origin) return <>Added by {evalCase.origin.created_by}</>;
  const reply = flaggedReplies.get(evalCase.origin.flag_id);
  return reply ? (
    <a href={`${chatPath(workspace, reply.chat_id)}#${encodeURIComponent(reply.message_id)}`}>From a flag</a>
  ) : (
    <>From a flag</>
  );
}

/** A case whose latest live result is a fail or an error. */
const failsOnLive = (history: CaseResult[] | undefined) => {
  const latest = history?.at(-1);
  return latest !== undefined && latest.verdict !== 'pass';
};

/**
 * An agent's eval cases: the form that adds one first, then those failing on live, then the others. Those made from
 * flags change through their flag, on the flagged reply's chat; those added by hand are edited and removed here.
 */
export function EvalCasesPage({ viewer, workspace, agent, cases, page, flaggedReplies, histories, slots }: EvalCasesPageProps) {
  const csrf = <CsrfField token={viewer.csrfToken} />;
  const role = roleIn(viewer, workspace);
  const failing = cases.filter((c) => failsOnLive(histories.get(c.id)));
  const others = cases.filter((c) => !failsOnLive(histories.get(c.id)));
  const item = (c: EvalCaseView) => (
    <li key={c.id} id={c.id} className="eval-case">
      <p className="meta">
        <Origin workspace={workspace} evalCase={c} flaggedReplies={flaggedReplies} /> · <When at={c.created_at} /> · <code>{c.id}</code>
      </p>
      <ol className="turns" aria-label="Visitor messages">
        {c.turns.map((turn, i) => (
          <li key={i}>{turn}</li>
        ))}
      </ol>
      <p className="expected">
        <span className="muted">Expected: </span>
        {c.expected}
      </p>
      <CaseStrip results={(histories.get(c.id) ?? []).slice(-slots)} slots={slots} />
      {'created_by' in c.origin && !allowsChange(role, c.origin.created_by, viewer.email, 'writeCases', 'changeAnyCase') ? (
        <p className="muted">Only {c.origin.created_by} or a developer changes it.</p>
      ) : 'created_by' in c.origin ? (
        <div className="actions">
          <details className="edit-case">
            <summary>Edit</summary>
            <form method="post" action={evalCasePath(workspace, agent, c.id)} className="case-form">
              {csrf}
              <CaseFields idPrefix={`edit-${c.id}`} turns={c.turns} expected={c.expected} />
              <button>Save case</button>
            </form>
          </details>
          <form method="post" action={`${evalCasePath(workspace, agent, c.id)}/remove`}>
            {csrf}
            <button className="secondary">Delete</button>
          </form>
        </div>
      ) : (
        <p className="muted">Change it through its flag, on the flagged reply.</p>
      )}
    </li>
  );
  return (
    <Layout title={`Eval cases of ${agent}`} viewer={viewer} workspace={workspace}>
      <p>
        <a href={evalRunsPath(workspace)}>Eval runs</a>
      </p>
      <h1>Eval cases of {agent}</h1>
      <p className="muted">
        Each run replays a case&apos;s visitor messages to the agent in a fresh chat and grades the last reply against the expected outcome.
      </p>
      <section aria-label="Add a case" className="add-case">
        <h2>Add a case</h2>
        <form method="post" action={`${agentEvalsPath(workspace, agent)}/cases`} className="case-form">
          {csrf}
          <CaseFields idPrefix="new" />
          <button>Add case</button>
        </form>
      </section>
      {cases.length ? (
        <>
          {failing.length > 0 && (
            <section aria-label="Failing on live">
              <h2>Failing on live</h2>
              <p className="muted">Their latest live result is a fail or an error.</p>
              <ol className="eval-cases">{failing.map(item)}</ol>
            </section>
          )}
          <section aria-label="Cases">
            {failing.length > 0 && <h2>The other cases</h2>}
            {others.length ? <ol className="eval-cases">{others.map(item)}</ol> : <p className="muted">None.</p>}
          </section>
        </>
      ) : (
        <p className="muted">{page.paged ? 'No more cases.' : 'No cases yet: flag a reply with a note, or add one above.'}</p>
      )}
      <Pager
        link={(cursor) => withQuery(agentEvalsPath(workspace, agent), { limit: page.limit, cursor })}
        paged={page.paged}
        nextCursor={page.nextCursor}
      />
    </Layout>
  );
}
