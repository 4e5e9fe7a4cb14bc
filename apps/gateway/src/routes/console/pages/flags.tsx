import type { FlagListQuery } from '@svc/domain';
import { Layout } from '../components/layout.tsx';
import { Pager } from '../components/pager.tsx';
import { FlagState } from '../components/reply-flag.tsx';
import { When } from '../components/when.tsx';
import type { FlagAnswer } from '../core-answers.ts';
import { chatPath, flagsPath, withQuery } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

type Status = FlagListQuery['status'];

const headings: Record<Status, string> = { open: 'Open', fixed: 'Fixed', removed: 'Removed', all: 'All' };

export interface FlagsPageProps {
  viewer: Viewer;
  workspace: string;
  status: Status;
  /** A page of the flags in that state, oldest first. */
  flags: FlagAnswer[];
  /** The page's limit as asked, whether it is past the first, and the cursor of the next. */
  page: { limit?: string; paged: boolean; nextCursor: string | null };
}

/** A workspace's flags in one state (or all), a page at a time, each linking to the flagged reply on its chat's page. */
export function FlagsPage({ viewer, workspace, status, flags, page }: FlagsPageProps) {
  const heading = headings[status];
  const link = (cursor?: string) => withQuery(flagsPath(workspace), { status, limit: page.limit, cursor });
  return (
    <Layout title={`Flags of ${workspace}`} viewer={viewer} workspace={workspace}>
      <h1>Flags</h1>
      <nav className="states" aria-label="States">
        {Object.entries(headings).map(([state, name]) =>
          state === status ? (
            <strong key={state}>{name}</strong>
          ) : (
            <a key={state} href={withQuery(flagsPath(workspace), { status: state })}>
              {name}
            </a>
          ),
        )}
      </nav>
      <section aria-label={heading}>
        <h2>{heading}</h2>
        {flags.length ? (
          <ul className="flags">
            {flags.map((f) => (
              <li key={f.id} className="flag">
                {f.note ? <p className="note">{f.note}</p> : <p className="note muted">No note.</p>}
                <p className="reply">
                  Reply: <a href={`${chatPath(workspace, f.chat_id)}#${encodeURIComponent(f.message_id)}`}>{f.reply}</a>
                </p>
                <p className="meta">
                  {f.agent} · {f.environment} · v{f.version.number} · <FlagState flag={f} /> · {f.created_by} · <When at={f.created_at} />
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{page.paged ? 'No more flags.' : `No ${status === 'all' ? '' : `${heading.toLowerCase()} `}flags.`}</p>
        )}
      </section>
      <Pager link={link} paged={page.paged} nextCursor={page.nextCursor} />
    </Layout>
  );
}
