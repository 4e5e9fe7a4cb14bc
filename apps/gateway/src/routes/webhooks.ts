import express, { Router } from 'express';
import { anonymous, type CoreClient } from '../core-client.ts';
import { maxBodyBytes } from '../http/json-body.ts';

/**
 * Provider status callbacks. Bodies stay raw: signatures are computed over the exact bytes (Meta)
 * or over the public URL and form fields (Twilio), and core checks them with the sender's secrets.
 */
export function webhookRoutes(core: CoreClient, publicUrl: string): Router {
  const routes = Router();
  routes.use(express.raw({ type: () => true, limit: maxBodyBytes }));

  routes.get('/whatsapp/:workspace', async (req, res) => {
    const challenge = await core.providerWebhooks.whatsappChallenge.query(
      {
        workspace: req.params.workspace,
        mode: String(req.query['hub.mode'] ?? ''),
        token: String(req.query['hub.verify_token'] ?? ''),
        challenge: String(req.query['hub.challenge'] ?? ''),
      },
      anonymous,
    );
    res.type('text/plain').send(challenge);
  });

  routes.post('/whatsapp/:workspace', async (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const result = await core.providerWebhooks.whatsapp.mutate(
      { workspace: req.params.workspace, rawBody, signature: req.get('x-hub-signature-256') },
      anonymous,
    );
    res.json(result);
  });

  routes.post('/twilio/:workspace', async (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const result = await core.providerWebhooks.twilio.mutate(
      {
        workspace: req.params.workspace,
        url: `${publicUrl}${req.originalUrl}`,
        rawBody,
        signature: req.get('x-twilio-signature'),
      },
      anonymous,
    );
    res.json(result);
  });
  return routes;
}
