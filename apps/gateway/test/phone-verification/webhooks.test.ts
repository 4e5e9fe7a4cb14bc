import { createHmac } from 'node:crypto';
import { type FakeProvider, graphAccepted, request, twilioAccepted } from '@svc/testkit';
import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock, number, outboxSettled, twilioSender, twilioWorld, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld;
afterEach(async () => {
  await world?.stop();
  world = undefined as unknown as VerificationWorld;
});

const statusPayload = (id: string, status: string, errors?: unknown[], callbackData?: string) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA_ID',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              statuses: [
                {
                  id,
                  status,
                  recipient_id: '56912345678',
                  ...(errors ? { errors } : {}),
                  ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}),
                },
              ],
            },
          },
        ],
      },
    ],
  });
const metaSign = (body: string, secret = 'meta-app-secret') => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The provider's id for the n-th message it accepted. */
const providerId = (fake: FakeProvider, index = 0) => {
  const body = fake.replies[index]!.body as { messages?: { id: string }[]; sid?: string };
  return body.messages?.[0]?.id ?? body.sid!;
};

const deliveryOf = async (id: string) => (await world.api(`/api/v1/acme/phone_verifications/${id}`)).body.delivery;

async function sentVerification(): Promise<string> {
  const id = (await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
  await expect.poll(async () => (await deliveryOf(id)).status).toBe('sent');
  return id;
}

const postMeta = (body: string, signature: string, slug = 'acme') =>
  request(`${world.platform.url}/webhooks/whatsapp/${slug}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
  });

describe('WhatsApp status webhooks', () => {
  it('move the delivery status forward when signed with the app secret, never back', async () => {
    world = await verificationWorld();
    const id = await sentVerification();
    for (const status of ['delivered', 'read']) {
      const body = statusPayload(providerId(world.graph), status);
      expect((await postMeta(body, metaSign(body))).status).toBe(200);
      expect((await deliveryOf(id)).status).toBe(status);
    }
    const late = statusPayload(providerId(world.graph), 'delivered');
    expect((await postMeta(late, metaSign(late))).status).toBe(200);
    expect((await deliveryOf(id)).status).toBe('read');
  });

  it('record a failure with its reason', async () => {
    world = await verificationWorld();
    const id = await sentVerification();
    const body = statusPayload(providerId(world.graph), 'failed', [{ code: 131026, title: 'Message undeliverable' }]);
    await postMeta(body, metaSign(body));
    expect(await deliveryOf(id)).toMatchObject({ status: 'failed', error: '131026 Message undeliverable' });
  });

  it('answer 401 to a bad or missing signature, or an unknown workspace, and change nothing', async () => {
    world = await verificationWorld();
    const id = await sentVerification();
    const body = statusPayload(providerId(world.graph), 'delivered');
    for (const [signature, slug] of [
      [metaSign(body, 'wrong-secret'), 'acme'],
      [metaSign(`${body} `), 'acme'],
      ['', 'acme'],
      [metaSign(body), 'nobody'],
    ] as const) {
      const res = await postMeta(body, signature, slug);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_signature');
    }
    expect((await deliveryOf(id)).status).toBe('sent');
  });

  it("answer Meta's subscription challenge only with the right verify token", async () => {
    world = await verificationWorld();
    await world.api('/api/developer/v1/acme/sender', {
      method: 'PUT',
      json: {
        kind: 'whatsapp_cloud',
        phone_number_id: '1234567890',
        access_token: 't',
        template: 'otp_code',
        webhook_verify_token: 'let-me-in-please',
      },
    });
    const base = `${world.platform.url}/webhooks/whatsapp/acme?hub.mode=subscribe`;
    expect(await request(`${base}&hub.verify_token=let-me-in-please&hub.challenge=1158201444`)).toMatchObject({
      status: 200,
      body: '1158201444',
    });
    expect((await request(`${base}&hub.verify_token=nope&hub.challenge=1`)).status).toBe(403);
  });
});

describe('a status for a send that got no answer', () => {
  const heldForever = new Promise(() => {});

  it('WhatsApp: records the code sent on the status that names its message, and does not send it again', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now, providers: { timeoutMs: 300 }, delivery: { backoffBaseMs: 1000 } });
    world.graph.queue({ ...graphAccepted(), until: heldForever });
    const id = (await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
    await expect
      .poll(async () => (await world.platform.core.services.store.outbox.due('9999-01-01T00:00:00.000Z', 1))[0]?.attempts)
      .toBe(1);
    // Meta took the send after all: its status names the message core sent.
    const [sent] = world.graph.requests;
    const body = statusPayload(providerId(world.graph), 'delivered', undefined, JSON.parse(sent!.body).biz_opaque_callback_data);
    expect((await postMeta(body, metaSign(body))).status).toBe(200);
    expect(await deliveryOf(id)).toMatchObject({ status: 'delivered', error: null });
    clock.advance(2); // past the retry's backoff
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(1);
  });

  it('Twilio: records the code sent on the status callback that names its message, and does not send it again', async () => {
    const clock = fakeClock();
    const tw = await twilioWorld({ clock: clock.now, providers: { timeoutMs: 300 }, delivery: { backoffBaseMs: 1000 } });
    tw.twilio.queue({ ...twilioAccepted(), until: heldForever });
    const id = (await tw.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
    await expect.poll(async () => (await tw.platform.core.services.store.outbox.due('9999-01-01T00:00:00.000Z', 1))[0]?.attempts).toBe(1);
    const callback = new URLSearchParams(tw.twilio.requests[0]!.body).get('StatusCallback')!;
    const params = { MessageSid: providerId(tw.twilio), MessageStatus: 'sent', AccountSid: twilioSender.account_sid };
    const posted = await request(callback, {
      method: 'POST',
      body: new URLSearchParams(params).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(twilioSender.auth_token, callback, params),
      },
    });
    expect(posted.status).toBe(200);
    expect((await tw.api(`/api/v1/acme/phone_verifications/${id}`)).body.delivery.status).toBe('sent');
    clock.advance(2);
    await outboxSettled(tw.platform);
    expect(tw.twilio.requests).toHaveLength(1);
    await tw.stop();
  });
});

describe('Twilio status callbacks', () => {
  it('apply a status signed as Twilio signs it, and reject a forged one', async () => {
    const tw = await twilioWorld();
    const id = (await tw.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
    const status = async () => (await tw.api(`/api/v1/acme/phone_verifications/${id}`)).body.delivery.status;
    await expect.poll(status).toBe('sent');

    const [sent] = tw.twilio.requests;
    const callback = new URLSearchParams(sent!.body).get('StatusCallback')!;
    const params = {
      MessageSid: providerId(tw.twilio),
      MessageStatus: 'delivered',
      AccountSid: twilioSender.account_sid,
      ChannelToAddress: number,
    };
    const post = (signature: string) =>
      request(callback, {
        method: 'POST',
        body: new URLSearchParams(params).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      });
    expect((await post(twilio.getExpectedTwilioSignature('wrong-token', callback, params))).status).toBe(401);
    expect(await status()).toBe('sent');
    expect((await post(twilio.getExpectedTwilioSignature(twilioSender.auth_token, callback, params))).status).toBe(200);
    expect(await status()).toBe('delivered');
    await tw.stop();
  });
});
