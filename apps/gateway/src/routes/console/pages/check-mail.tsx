import { Layout } from '../components/layout.tsx';

export function CheckMailPage({ email }: { email: string }) {
  return (
    <Layout title="Check your mail">
      <h1>Check your mail</h1>
      <p>
        We sent a sign-in link to <b>{email}</b>. It works once, for 15 minutes.
      </p>
    </Layout>
  );
}
