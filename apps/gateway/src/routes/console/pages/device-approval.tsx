import { visibleText } from '@svc/domain';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { When } from '../components/when.tsx';
import type { DeviceRequest } from '../core-answers.ts';
import type { Viewer } from '../viewer.ts';

/** A pending CLI sign-in: who asks, from where, and the code to compare with the terminal's. */
export function DeviceApprovalPage({ viewer, request }: { viewer: Viewer; request: DeviceRequest }) {
  return (
    <Layout title="Approve a sign-in" viewer={viewer}>
      <h1>Approve this sign-in?</h1>
      <p>Check that this code matches the one in your terminal:</p>
      <p className="code">{request.userCode}</p>
      <dl>
        <dt>Client</dt>
        <dd>{request.clientName}</dd>
        <dt>Host name</dt>
        <dd>{request.hostname ?? 'not given'}</dd>
        <dt>IP address</dt>
        <dd>{request.ip ?? 'unknown'}</dd>
        <dt>User agent</dt>
        <dd>{request.userAgent === null ? 'unknown' : visibleText(request.userAgent)}</dd>
        <dt>Requested</dt>
        <dd>
          <When at={request.createdAt} />
        </dd>
        <dt>Signing in as</dt>
        <dd>{viewer.email}</dd>
      </dl>
      <p className="muted">Approving gives that client a developer token for your account. If you did not start this, deny it.</p>
      <form method="post" action="/device" className="actions">
        <CsrfField token={viewer.csrfToken} />
        <input type="hidden" name="user_code" value={request.userCode} />
        <button name="decision" value="approved">
          Approve
        </button>
        <button name="decision" value="denied" className="secondary">
          Deny
        </button>
      </form>
    </Layout>
  );
}
