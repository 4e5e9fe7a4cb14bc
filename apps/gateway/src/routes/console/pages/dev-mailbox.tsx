import { DevNav } from '../components/dev-nav.tsx';
import { Layout } from '../components/layout.tsx';
import { LinkedText } from '../components/linked-text.tsx';
import { When } from '../components/when.tsx';
import type { DevMail } from '../core-answers.ts';

/** The mails kept instead of sent, newest first, their links clickable. */
export function DevMailboxPage({ mails }: { mails: DevMail[] }) {
  return (
    <Layout title="Dev mailbox">
      <DevNav current="/dev/mailbox" />
      <h1>Dev mailbox</h1>
      <p>
        Mails kept instead of sent (no <code>SMTP_URL</code>). Links in them work. Newest first; reload to see new ones.
      </p>
      {mails.length ? (
        <ol className="cards">
          {mails.map((m) => (
            <li className="card" key={`${m.to} ${m.created_at} ${m.subject}`}>
              <article>
                <h2>{m.subject}</h2>
                <p className="meta">
                  To {m.to} · <When at={m.created_at} />
                </p>
                <pre className="mail">
                  <LinkedText text={m.text} />
                </pre>
              </article>
            </li>
          ))}
        </ol>
      ) : (
        <p>No mail yet.</p>
      )}
    </Layout>
  );
}
