import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';

/** The page a mailed sign-in link opens: opening it changes nothing, its button signs in. */
export function ContinueAsPage({ email, csrf }: { email: string; csrf: string }) {
  return (
    <Layout title="Sign in">
      <h1>Sign in to svc</h1>
      <p>
        Continue as <b>{email}</b>?
      </p>
      <form method="post">
        <CsrfField token={csrf} />
        <button>Continue as {email}</button>
      </form>
    </Layout>
  );
}
