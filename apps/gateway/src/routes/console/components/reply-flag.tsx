import { allowsChange, type FlagWarning, type Role } from '@svc/domain';
import type { ChatFlagAnswer, FlagAnswer, FlagWithHistoryAnswer } from '../core-answers.ts';
import { agentEvalsPath, chatFlagsPath, evalRunPath, evalRunsPath, flagPath } from '../paths.ts';
import { CsrfField } from './csrf-field.tsx';
import { When } from './when.tsx';

export interface ReplyFlagProps {
  workspace: string;
  chatId: string;
  messageId: string;
  csrfToken: string;
  /** Who looks: a supervisor changes only the flags they made. */
  actor: { email: string; role: Role };
  /** The reply's flags, each with its history and, once fixed, the live run that fixed it; at most one is not removed. */
  flags: ChatFlagAnswer[];
  /** A note posted for this reply and not saved yet, with why: the form shows open with it, asking to confirm. */
  draft?: FlagDraft;
}

/** A note the reply already meets: shown back with the warning before the flag is saved. */
export interface FlagDraft {
  messageId: string;
  note: string;
  warning: FlagWarning;
}

/**
 * The flag form, folded behind a "Flag" button (a <details>, so without JavaScript too). A draft opens it with its
 * note and warning, and its button saves the flag all the same.
 */
function FlagForm({ workspace, chatId, messageId, csrfToken, draft }: Omit<ReplyFlagProps, 'actor' | 'flags'>) {
  const noteId = `flag-note-${messageId}`;
  return (
    <details className="flag-form" open={draft !== undefined}>
      <summary className="button secondary">Flag</summary>
      <form method="post" action={chatFlagsPath(workspace, chatId)}>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="message_id" value={messageId} />
        <label htmlFor={noteId}>What should the agent have said? (optional)</label>
        <textarea id={noteId} name="note" rows={3} maxLength={10_000} defaultValue={draft?.note} />
        {draft && (
          <>
            <p className="warning" role="alert">
              Not saved yet: {draft.warning.message}.
            </p>
            <input type="hidden" name="confirmed" value="yes" />
          </>
        )}
        <button>{draft ? 'Flag anyway' : 'Save flag'}</button>
      </form>
    </details>
  );
}

/** Where the flag's case is, and, once fixed, the live run whose pass fixed it. */
function FlagEvals({ workspace, flag }: { workspace: string; flag: ChatFlagAnswer }) {
  if (!flag.eval_case_id && flag.status !== 'fixed') return null;
  const liveRuns = `${evalRunsPath(workspace)}?environment=live`;
  return (
    <p className="actions">
      {flag.eval_case_id && <a href={`${agentEvalsPath(workspace, flag.agent)}#${encodeURIComponent(flag.eval_case_id)}`}>Eval case</a>}
      {flag.status === 'fixed' && (
        <a href={flag.fixed_by_run_id ? evalRunPath(workspace, flag.fixed_by_run_id) : liveRuns}>The live run that fixed it</a>
      )}
    </p>
  );
}

/** A flag's state as a person reads it: fixed names the version that fixed it. */
export function FlagState({ flag }: { flag: FlagAnswer }) {
  if (flag.status !== 'fixed') return <span className={`flag-state ${flag.status}`}>{flag.status === 'open' ? 'Open' : 'Removed'}</span>;
  return (
    <span className="flag-state fixed">
      Fixed in v{flag.fixed_by_version?.number ?? '?'}
      {flag.fixed_at && (
        <>
          {' '}
          (<When at={flag.fixed_at} />)
        </>
      )}
    </span>
  );
}

const noteChange = (before: string | null, after: string | null) => {
  if (before === after) return '';
  if (after === null) return ', note cleared';
  return before === null ? ', note added' : ', note edited';
};

function FlagHistory({ flag }: { flag: FlagWithHistoryAnswer }) {
  return (
    <ol className="flag-history">
      {flag.history.map((e, i) => (
        <li key={i}>
          {e.actor}: {e.from_status ?? 'new'} → {e.to_status}
          {noteChange(e.note_before, e.note_after)} · <When at={e.at} />
        </li>
      ))}
    </ol>
  );
}

/**
 * What a supervisor does with an agent reply: flag it with a note, or, once flagged, see the flag's state and
 * history, edit its note or remove it. Removed flags stay listed with their history; the reply can be flagged again.
 */
export function ReplyFlag({ workspace, chatId, messageId, csrfToken, actor, flags, draft }: ReplyFlagProps) {
  const live = flags.find((f) => f.status !== 'removed');
  const removed = flags.filter((f) => f.status === 'removed');
  const csrf = <CsrfField token={csrfToken} />;
  const noteId = (what: string) => `${what}-${messageId}`;
  return (
    <div className="reply-flag">
      {live ? (
        <section className="flag live" aria-label="Flag">
          <p>
            Flag: <FlagState flag={live} /> · flagged by {live.created_by}
          </p>
          <FlagEvals workspace={workspace} flag={live} />
          {allowsChange(actor.role, live.created_by, actor.email, 'flag', 'changeAnyFlag') ? (
            <>
              <form method="post" action={`${flagPath(workspace, live.id)}/note`}>
                {csrf}
                <label htmlFor={noteId('edit-note')}>Note</label>
                <textarea id={noteId('edit-note')} name="note" rows={3} maxLength={10_000} defaultValue={live.note ?? ''} />
                <button>Edit note</button>
              </form>
              <a className="button secondary" href={`${flagPath(workspace, live.id)}/remove`}>
                Remove flag
              </a>
            </>
          ) : (
            <>
              {live.note && <p className="flag-note">Note: {live.note}</p>}
              <p className="muted">Only {live.created_by} or a developer changes this flag.</p>
            </>
          )}
          <FlagHistory flag={live} />
        </section>
      ) : (
        <FlagForm workspace={workspace} chatId={chatId} messageId={messageId} csrfToken={csrfToken} draft={draft} />
      )}
      {removed.map((f) => (
        <section key={f.id} className="flag removed" aria-label="Removed flag">
          <p>
            Flag: <FlagState flag={f} />
            {f.note && <> · note was: {f.note}</>}
          </p>
          <FlagHistory flag={f} />
        </section>
      ))}
    </div>
  );
}
