import { Layout } from '../components/layout.tsx';
import type { Viewer } from '../viewer.ts';

export function DeviceDecidedPage({ viewer, decision }: { viewer: Viewer; decision: 'approved' | 'denied' }) {
  return decision === 'approved' ? (
    <Layout title="Approved" viewer={viewer}>
      <h1>Approved</h1>
      <p>You can return to your terminal: it is signed in.</p>
    </Layout>
  ) : (
    <Layout title="Denied" viewer={viewer}>
      <h1>Denied</h1>
      <p>The client was refused. You can close this page.</p>
    </Layout>
  );
}
