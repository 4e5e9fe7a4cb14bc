import type { DeveloperTokenView } from '@svc/domain';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { When } from '../components/when.tsx';
import { revokePath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

/** Asks before revoking: showing this page changes nothing, its button's POST revokes. */
export function RevokeTokenPage({ viewer, token, inUse }: { viewer: Viewer; token: DeveloperTokenView; inUse: boolean }) {
  return (
    <Layout title={`Revoke ${token.name}`} viewer={viewer}>
      <h1>Revoke {token.name}?</h1>
      <dl>
        <dt>ID</dt>
        <dd>
          <code>{token.id}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={token.created_at} />
        </dd>
        <dt>Last used</dt>
        <dd>{token.last_used_at ? <When at={token.last_used_at} /> : 'never'}</dd>
      </dl>
      <p>
        Whatever uses this token stops working at once; a CLI signed in with it has to run <code>svc login</code> again. This cannot be
        undone.
      </p>
      {inUse && <p className="error">This is the token in use: it made the latest request, probably from the CLI you use.</p>}
      <form method="post" action={revokePath(token.id)} className="actions">
        <CsrfField token={viewer.csrfToken} />
        <button className="danger">Revoke this token</button>
        <a className="button secondary" href="/tokens">
          Cancel
        </a>
      </form>
    </Layout>
  );
}
