import { Router } from 'express';
import type { CoreClient } from '../core-client.ts';

const noCaller = { context: { authorization: undefined } };

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Local mode's dev outbox: what the `dev` sender "sent", as JSON and as a page. */
export function devRoutes(core: CoreClient): Router {
  const routes = Router();
  routes.get('/outbox.json', async (_req, res) => {
    res.json(await core.dev.outbox.query(undefined, noCaller));
  });
  routes.get('/outbox', async (_req, res) => {
    const { messages } = await core.dev.outbox.query(undefined, noCaller);
    const rows = messages
      .map(
        (m) =>
          `<tr><td><time>${escape(m.created_at)}</time></td><td>${escape(m.to)}</td><td>${escape(m.body)}</td><td><code>${escape(m.verification_id)}</code></td></tr>`,
      )
      .join('');
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev outbox · svc</title>
<meta http-equiv="refresh" content="5">
<style>body{font:15px system-ui,sans-serif;margin:2rem;color:#111}table{border-collapse:collapse;width:100%}td,th{padding:.4rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}code{font-size:13px}</style></head>
<body><h1>Dev outbox</h1><p>Messages the <code>dev</code> sender would have delivered, newest first. Refreshes every 5 seconds.</p>
<table><thead><tr><th>Sent</th><th>To</th><th>Message</th><th>Verification</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No messages yet.</td></tr>'}</tbody></table></body></html>`);
  });
  return routes;
}
