import { Layout } from '../components/layout.tsx';
import type { Viewer } from '../viewer.ts';

/** Asks for the code a terminal shows; a GET form, since looking a request up changes nothing. */
export function DeviceCodePage({ viewer }: { viewer: Viewer }) {
  return (
    <Layout title="Approve a sign-in" viewer={viewer}>
      <h1>Approve a CLI sign-in</h1>
      <p>Type the code your terminal shows.</p>
      <form method="get" action="/device">
        <p>
          <input type="text" name="user_code" required placeholder="BCDF-GHJK" autoComplete="off" autoFocus className="code" />
        </p>
        <p>
          <button>Continue</button>
        </p>
      </form>
    </Layout>
  );
}
