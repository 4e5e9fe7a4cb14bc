import { Layout } from '../components/layout.tsx';

export function LinkExpiredPage() {
  return (
    <Layout title="Link expired">
      <h1>This link has expired</h1>
      <p>
        It was used already or is over 15 minutes old. <a href="/login">Ask for a new one</a>.
      </p>
    </Layout>
  );
}
