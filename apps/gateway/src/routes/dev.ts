import { Router } from 'express';
import { anonymous, type CoreClient } from '../core-client.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { html, page, sendPage } from './console/html.ts';

const refresh = html`<p class="muted">Newest first; reload to see new ones.</p>`;

/**
 * Local mode only: what the dev sender and the dev mailbox kept instead of sending, as JSON and as pages. They hold
 * every code and sign-in link, so they answer this machine only.
 */
export function devRoutes(core: CoreClient): Router {
  const routes = Router();
  routes.use(loopbackOnly);

  routes.get('/outbox.json', async (_req, res) => {
    res.json(await core.dev.outbox.query(undefined, anonymous));
  });
  routes.get('/outbox', async (_req, res) => {
    const { messages } = await core.dev.outbox.query(undefined, anonymous);
    const rows = messages.map(
      (m) =>
        html`<tr>
          <td><time>${m.created_at}</time></td>
          <td>${m.to}</td>
          <td>${m.body}</td>
          <td><code>${m.verification_id}</code></td>
        </tr>`,
    );
    sendPage(
      res,
      page(
        'Dev outbox',
        html`<h1>Dev outbox</h1>
          <p>Messages the <code>dev</code> sender would have delivered.</p>
          ${refresh}
          <table>
            <thead>
              <tr>
                <th>Sent</th>
                <th>To</th>
                <th>Message</th>
                <th>Verification</th>
              </tr>
            </thead>
            <tbody>
              ${
                rows.length
                  ? rows
                  : html`<tr>
                      <td colspan="4">No messages yet.</td>
                    </tr>`
              }
            </tbody>
          </table>`,
      ),
    );
  });

  routes.get('/mailbox.json', async (_req, res) => {
    res.json(await core.dev.mailbox.query(undefined, anonymous));
  });
  routes.get('/mailbox', async (_req, res) => {
    const { messages } = await core.dev.mailbox.query(undefined, anonymous);
    const mails = messages.map(
      (m) =>
        html`<article>
            <h2>${m.subject}</h2>
            <p class="muted">To ${m.to}, <time>${m.created_at}</time></p>
            <pre class="mail">${m.text}</pre>
          </article>
          <hr />`,
    );
    sendPage(
      res,
      page(
        'Dev mailbox',
        html`<h1>Dev mailbox</h1>
          <p>Mails kept instead of sent (no <code>SMTP_URL</code>). Links in them work.</p>
          ${refresh}${mails.length ? mails : html`<p>No mail yet.</p>`}`,
      ),
    );
  });
  return routes;
}
