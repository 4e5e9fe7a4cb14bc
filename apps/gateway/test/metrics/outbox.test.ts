import { freePort, graphAccepted, request, scrapeMetrics } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeClock, type VerificationWorld, verificationWorld } from '../phone-verification/setup.ts';

const clock = fakeClock();
let world: VerificationWorld;
let letGo: () => void = () => {};
beforeAll(async () => {
  // Mail goes to an SMTP server that is not there: every send fails and is retried, so a mail stays pending.
  world = await verificationWorld({ clock: clock.now, metrics: true, mail: { smtpUrl: `smtp://127.0.0.1:${await freePort()}` } });
});
afterAll(async () => {
  letGo();
  await world.stop();
});

const outboxes = async () => {
  const scraped = await scrapeMetrics(world.platform.metricsUrls!.core);
  const of = (outbox: string) => ({
    pending: scraped.value('svc_outbox_pending', { outbox }),
    oldestAgeSeconds: scraped.value('svc_outbox_oldest_pending_age_seconds', { outbox }),
  });
  return { messages: of('messages'), mails: of('mails') };
};
const none = { pending: 0, oldestAgeSeconds: 0 };

it('tells how many codes and mails wait in the outboxes and how long ago the oldest of each was queued', async () => {
  expect(await outboxes()).toEqual({ messages: none, mails: none });
  // WhatsApp takes the codes' sends and holds them unanswered: the codes stay pending.
  const held = new Promise<void>((resolve) => (letGo = resolve));
  world.graph.queue({ ...graphAccepted(), until: held }, { ...graphAccepted(), until: held });
  for (const phone_number of ['+56912345678', '+56912345679']) {
    expect((await world.api('/api/v1/acme/phone_verifications', { json: { phone_number } })).status).toBe(201);
  }
  const signIn = await request(`${world.platform.url}/cli/device_authorizations`, { json: { email: 'ada@example.com' } });
  expect(signIn.body.email_sent).toBe(true);
  await world.graph.waitForRequests(2);
  clock.advance(30);
  expect(await outboxes()).toEqual({ messages: { pending: 2, oldestAgeSeconds: 30 }, mails: { pending: 1, oldestAgeSeconds: 30 } });

  letGo();
  await expect.poll(outboxes).toEqual({ messages: none, mails: { pending: 1, oldestAgeSeconds: 30 } });
});
