import { DevNav } from '../components/dev-nav.tsx';
import { Layout } from '../components/layout.tsx';
import { OtpText } from '../components/otp-text.tsx';
import { When } from '../components/when.tsx';
import type { DevMessage } from '../core-answers.ts';

/** The messages the dev sender kept instead of delivering, newest first. */
export function DevOutboxPage({ messages }: { messages: DevMessage[] }) {
  return (
    <Layout title="Dev outbox">
      <DevNav current="/dev/outbox" />
      <h1>Dev outbox</h1>
      <p>
        Messages the <code>dev</code> sender would have delivered. Newest first; reload to see new ones.
      </p>
      {messages.length ? (
        <ol className="cards">
          {messages.map((m) => (
            <li className="card" key={`${m.verification_id} ${m.created_at}`}>
              <p className="meta">
                To {m.to} · <When at={m.created_at} />
              </p>
              <p>
                <OtpText text={m.body} />
              </p>
              <p className="meta">
                Verification <code>{m.verification_id}</code>
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p>No messages yet.</p>
      )}
    </Layout>
  );
}
