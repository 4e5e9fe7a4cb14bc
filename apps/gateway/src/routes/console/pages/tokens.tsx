import type { DeveloperTokenView } from '@svc/domain';
import { Layout } from '../components/layout.tsx';
import { When } from '../components/when.tsx';
import { revokePath } from '../paths.ts';
import { tokenInUse } from '../token-in-use.ts';
import type { Viewer } from '../viewer.ts';

export function TokensPage({ viewer, tokens }: { viewer: Viewer; tokens: DeveloperTokenView[] }) {
  const inUse = tokenInUse(tokens);
  return (
    <Layout title="Developer tokens" viewer={viewer}>
      <h1>Developer tokens</h1>
      {tokens.length ? (
        <>
          <p className="muted">
            Each <code>svc login</code> adds one. <span className="badge">in use</span> marks the token that made the latest request: the
            CLI you used last.
          </p>
          <table className="stacked">
            <thead>
              <tr>
                <th>Name</th>
                <th>ID</th>
                <th>Created</th>
                <th>Last used</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <TokenRow key={t.id} token={t} inUse={t.id === inUse?.id} />
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p>
          No tokens. <code>svc login</code> creates one.
        </p>
      )}
    </Layout>
  );
}

function TokenRow({ token, inUse }: { token: DeveloperTokenView; inUse: boolean }) {
  return (
    <tr className={inUse ? 'in-use' : undefined} aria-current={inUse ? 'true' : undefined}>
      <td>
        {token.name}
        {inUse && <span className="badge">in use</span>}
      </td>
      <td data-label="ID">
        <code>{token.id}</code>
      </td>
      <td data-label="Created">
        <When at={token.created_at} />
      </td>
      <td data-label="Last used">{token.last_used_at ? <When at={token.last_used_at} /> : 'never'}</td>
      <td>
        <a className="button secondary" href={revokePath(token.id)}>
          Revoke
        </a>
      </td>
    </tr>
  );
}
