import type { FlagView } from '@svc/domain';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { chatPath, flagPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

/** Asks before removing a flag: showing this page changes nothing, its button's POST removes. */
export function RemoveFlagPage({ viewer, workspace, flag }: { viewer: Viewer; workspace: string; flag: FlagView }) {
  const back = `${chatPath(workspace, flag.chat_id)}#${encodeURIComponent(flag.message_id)}`;
  return (
    <Layout title="Remove a flag" viewer={viewer} workspace={workspace}>
      <h1>Remove this flag?</h1>
      <p className="note">{flag.note ?? 'No note.'}</p>
      <dl>
        <dt>Reply</dt>
        <dd>{flag.reply}</dd>
        <dt>Flagged by</dt>
        <dd>{flag.created_by}</dd>
      </dl>
      <p>Its eval case is removed with it, and it leaves the digest. The reply can be flagged again.</p>
      <form method="post" action={`${flagPath(workspace, flag.id)}/remove`} className="actions">
        <CsrfField token={viewer.csrfToken} />
        <button className="danger">Remove this flag</button>
        <a className="button secondary" href={back}>
          Cancel
        </a>
      </form>
    </Layout>
  );
}
