import { Layout } from '../components/layout.tsx';
import { FlagState } from '../components/reply-flag.tsx';
import { When } from '../components/when.tsx';
import type { FlagAnswer } from '../core-answers.ts';
import { chatPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

const states = [
  { status: 'open', heading: 'Open' },
  { status: 'fixed', heading: 'Fixed' },
  { status: 'removed', heading: 'Removed' },
] as const;

/** A workspace's flags by state, each linking to the flagged reply on its chat's page. */
export function FlagsPage({ viewer, workspace, flags }: { viewer: Viewer; workspace: string; flags: FlagAnswer[] }) {
  return (
    <Layout title={`Flags of ${workspace}`} viewer={viewer} workspace={workspace}>
      <h1>Flags</h1>
      {states.map(({ status, heading }) => {
        const shown = flags.filter((f) => f.status === status);
        return (
          <section key={status} aria-label={heading}>
            <h2>
              {heading} ({shown.length})
            </h2>
            {shown.length ? (
              <ul className="flags">
                {shown.map((f) => (
                  <li key={f.id} className="flag">
                    {f.note ? <p className="note">{f.note}</p> : <p className="note muted">No note.</p>}
                    <p className="reply">
                      Reply: <a href={`${chatPath(workspace, f.chat_id)}#${encodeURIComponent(f.message_id)}`}>{f.reply}</a>
                    </p>
                    <p className="meta">
                      {f.agent} · {f.environment} · v{f.version.number} · <FlagState flag={f} /> · {f.created_by} ·{' '}
                      <When at={f.created_at} />
                    </p>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No {heading.toLowerCase()} flags.</p>
            )}
          </section>
        );
      })}
    </Layout>
  );
}
