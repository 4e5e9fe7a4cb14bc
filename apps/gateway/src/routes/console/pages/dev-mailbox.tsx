import { DevNav } from '../components/dev-nav.tsx';
import { Layout } from '../components/layout.tsx';
import { LinkedText } from '../components/linked-text.tsx';
import { When } from '../components/when.tsx';
import type { DevMail } from '../core-answers.ts';

/** What a run of the daily digest from this page did: its day, the workspaces it mailed, the issues it had updated. */
export interface DigestRan {
  day: string;
  mailed: string[];
  issues: string[];
}

/** The mails kept instead of sent, newest first, their links clickable; a button runs the daily digest now. */
export function DevMailboxPage({ mails, digest }: { mails: DevMail[]; digest?: DigestRan }) {
  return (
    <Layout title="Dev mailbox">
      <DevNav current="/dev/mailbox" />
      <h1>Dev mailbox</h1>
      <p>
        Mails kept instead of sent (no <code>SMTP_URL</code>). Links in them work. Newest first; reload to see new ones.
      </p>
      <form method="post" action="/dev/digest">
        <p>
          The daily digest mails owners and developers the replies flagged since its last mail, every day at the time of{' '}
          <code>SVC_DIGEST_CRON</code>. <button type="submit">Run the daily digest now</button>
        </p>
      </form>
      {digest && (
        <p role="status">
          The daily digest ran for {digest.day}:{' '}
          {digest.mailed.length ? `mailed ${digest.mailed.join(', ')}.` : 'no workspace has replies flagged since its last digest mail.'}
          {digest.issues.length > 0 && ` The GitHub App brings the service-flags issue of ${digest.issues.join(', ')} up to date.`}
        </p>
      )}
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
