import { Router } from 'express';
import { anonymous, type CoreClient } from '../core-client.ts';
import { bodyParser } from '../http/json-body.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { sameOriginChanges } from '../http/same-origin.ts';
import { DevMailboxPage } from './console/pages/dev-mailbox.tsx';
import { DevOutboxPage } from './console/pages/dev-outbox.tsx';
import { sendPage } from './console/render.tsx';

/**
 * Local mode only: what the dev sender and the dev mailbox kept instead of sending, as JSON and as pages, and the
 * daily digest on demand. They hold every code and sign-in link, so they answer this machine only.
 */
export function devRoutes(core: CoreClient): Router {
  const routes = Router();
  routes.use(loopbackOnly);

  routes.get('/outbox.json', async (_req, res) => {
    res.json(await core.dev.outbox.query(undefined, anonymous));
  });
  routes.get('/outbox', async (_req, res) => {
    const { messages } = await core.dev.outbox.query(undefined, anonymous);
    sendPage(res, <DevOutboxPage messages={messages} />);
  });

  routes.get('/mailbox.json', async (_req, res) => {
    res.json(await core.dev.mailbox.query(undefined, anonymous));
  });
  routes.get('/mailbox', async (req, res) => {
    const { messages } = await core.dev.mailbox.query(undefined, anonymous);
    const digest = typeof req.query.digest === 'string' ? req.query.digest : undefined;
    const list = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string).split(',').filter(Boolean) : []);
    const ran = digest === undefined ? undefined : { day: digest, mailed: list('mailed'), issues: list('issues') };
    sendPage(res, <DevMailboxPage mails={messages} digest={ran} />);
  });

  // Runs the daily digest now (for today, even if done). The mailbox page's button lands back on the mailbox.
  // Its body, if any (the button's empty form), is read and ignored: a body that is not what it says is refused.
  routes.post('/digest', sameOriginChanges('the dev pages'), bodyParser(true), async (req, res) => {
    const ran = await core.dev.digest.mutate(undefined, anonymous);
    if (req.accepts(['json', 'html']) !== 'html') {
      res.json(ran);
      return;
    }
    const mailed = ran.workspaces.filter((w) => w.outcome === 'mailed').map((w) => w.workspace);
    const shown = new URLSearchParams({ digest: ran.day, mailed: mailed.join(','), issues: ran.flags_issues.join(',') });
    res.redirect(303, `/dev/mailbox?${shown}`);
  });
  return routes;
}
