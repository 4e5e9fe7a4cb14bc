import { Layout } from '../components/layout.tsx';
import type { DeviceRequest } from '../core-answers.ts';
import type { Viewer } from '../viewer.ts';

const outcome = { approved: 'was approved', spent: 'was approved and used', denied: 'was denied', expired: 'expired' } as const;

/** A sign-in request that is no longer waiting for an answer. */
export function DeviceSettledPage({ viewer, request }: { viewer: Viewer; request: DeviceRequest & { status: keyof typeof outcome } }) {
  return (
    <Layout title="Sign-in request" viewer={viewer}>
      <h1>This sign-in request {outcome[request.status]}</h1>
      <p className="muted">Code {request.userCode}. Nothing more to do here.</p>
    </Layout>
  );
}
