import { Layout } from '../components/layout.tsx';

export function ErrorPage({ message }: { message: string }) {
  return (
    <Layout title="Something went wrong">
      <h1>That did not work</h1>
      <p className="error">{message}</p>
      <p>
        <a href="/">Back to svc</a>
      </p>
    </Layout>
  );
}
