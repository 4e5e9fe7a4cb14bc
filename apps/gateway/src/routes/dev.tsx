import { Router } from 'express';
import { anonymous, type CoreClient } from '../core-client.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { DevMailboxPage } from './console/pages/dev-mailbox.tsx';
import { DevOutboxPage } from './console/pages/dev-outbox.tsx';
import { sendPage } from './console/render.tsx';

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
    sendPage(res, <DevOutboxPage messages={messages} />);
  });

  routes.get('/mailbox.json', async (_req, res) => {
    res.json(await core.dev.mailbox.query(undefined, anonymous));
  });
  routes.get('/mailbox', async (_req, res) => {
    const { messages } = await core.dev.mailbox.query(undefined, anonymous);
    sendPage(res, <DevMailboxPage mails={messages} />);
  });
  return routes;
}
