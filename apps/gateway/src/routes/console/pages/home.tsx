import { Layout } from '../components/layout.tsx';
import { workspacePath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export function HomePage({ viewer }: { viewer: Viewer }) {
  return (
    <Layout title="Console" viewer={viewer}>
      <h1>svc</h1>
      <p>Signed in as {viewer.email}.</p>
      <h2>Your workspaces</h2>
      {viewer.workspaces.length ? (
        <ul>
          {viewer.workspaces.map((w) => (
            <li key={w.slug}>
              <a href={workspacePath(w.slug)}>{w.name ?? w.slug}</a> <span className="role">{w.role}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>
          None yet. <code>svc workspaces create &lt;slug&gt;</code> creates one.
        </p>
      )}
      <h2>Account</h2>
      <ul>
        <li>
          <a href="/tokens">Developer tokens</a>
        </li>
        <li>
          <a href="/device">Approve a CLI sign-in</a>
        </li>
        <li>
          <a href="/openapi.json">API reference (OpenAPI)</a>
        </li>
      </ul>
    </Layout>
  );
}
