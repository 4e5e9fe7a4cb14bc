import { Layout } from '../components/layout.tsx';

export function CheckMailPage({ email, localMode }: { email: string; localMode: boolean }) {
  return (
    <Layout title="Check your mail">
      <h1>Check your mail</h1>
      <p>
        We sent a sign-in link to <b>{email}</b>. It works once, for 15 minutes.
      </p>
      {localMode && (
        <p>
          Local mode keeps mails in the <a href="/dev/mailbox">dev mailbox</a> on this machine (unless <code>SMTP_URL</code> is set): the
          link is there.
        </p>
      )}
    </Layout>
  );
}
