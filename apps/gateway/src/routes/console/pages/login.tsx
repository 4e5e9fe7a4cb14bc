import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';

/** Asks for the address to mail a sign-in link to; `next` is where the link lands. */
export function LoginPage({ csrf, next }: { csrf: string; next: string }) {
  return (
    <Layout title="Sign in">
      <h1>Sign in to svc</h1>
      <p>We will mail you a sign-in link.</p>
      <form method="post" action="/login">
        <CsrfField token={csrf} />
        <input type="hidden" name="next" value={next} />
        <p>
          <label>
            Email <input type="email" name="email" required autoComplete="email" autoFocus />
          </label>
        </p>
        <p>
          <button>Mail me a link</button>
        </p>
      </form>
    </Layout>
  );
}
