import { graphAccepted, request, startFakeProvider, startSilentPeer } from '@svc/testkit';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock, number, outboxSettled, twilioSender, twilioWorld, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const create = (w: VerificationWorld) => w.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } });
const show = (w: Pick<VerificationWorld, 'api'>, id: string) => w.api(`/api/v1/acme/phone_verifications/${id}`);

/** The only message, while it waits for its next attempt. */
const waiting = async (platform: TestPlatform) => (await platform.core.services.store.outbox.due('9999-01-01T00:00:00.000Z', 10))[0];

/** Resolves once core has recorded `count` failed attempts of the only message and scheduled the next. */
const failedAttempts = (w: { platform: TestPlatform }, count: number) =>
  expect.poll(async () => (await waiting(w.platform))?.attempts).toBe(count);

describe('WhatsApp Cloud API', () => {
  it('sends an AUTHENTICATION template with the code in the body and the copy-code button', async () => {
    world = await verificationWorld();
    await create(world);
    const [sent] = await world.graph.waitForRequests(1);
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe('/1234567890/messages');
    expect(sent!.headers.authorization).toBe('Bearer EAAG-secret-access-token');
    const body = JSON.parse(sent!.body);
    const code = body.template.components[0].parameters[0].text;
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '56912345678',
      type: 'template',
      // Handed back in the message's status webhooks: a status then names the message even if this send got no answer.
      biz_opaque_callback_data: expect.stringMatching(/^msg_\w+$/),
      template: {
        name: 'otp_code',
        language: { code: 'en_US' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: code }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
        ],
      },
    });
  });

  it('retries 5xx and network failures with backoff until the provider accepts', async () => {
    world = await verificationWorld();
    world.graph.queue({ status: 500, body: { error: { message: 'Internal' } } }, { status: 502, body: 'bad gateway' });
    const id = (await create(world)).body.verification_id;
    await world.graph.waitForRequests(3);
    await expect.poll(async () => (await show(world!, id)).body.delivery.status).toBe('sent');
    const codes = world.graph.requests.map((r) => JSON.parse(r.body).template.components[0].parameters[0].text);
    expect(new Set(codes).size).toBe(1);
  });

  it('gives up at once on a 4xx and records the provider error', async () => {
    world = await verificationWorld();
    world.graph.queue({
      status: 400,
      body: { error: { message: '(#132001) Template name does not exist in the translation', code: 132001 } },
    });
    const id = (await create(world)).body.verification_id;
    await expect.poll(async () => (await show(world!, id)).body.delivery.status).toBe('failed');
    const { delivery } = (await show(world, id)).body;
    expect(delivery.error).toContain('Template name does not exist');
    expect(delivery.error).toContain('132001');
    await outboxSettled(world.platform); // given up for good: nothing is left to retry
    expect(world.graph.requests).toHaveLength(1);
  });

  it('sends the next codes while one send hangs on a slow answer', async () => {
    world = await verificationWorld();
    world.graph.queue({ ...graphAccepted(), delayMs: 5000 });
    const slow = (await create(world)).body.verification_id;
    await world.graph.waitForRequests(1);
    const others = ['+56911111111', '+56922222222', '+56933333333'];
    const ids = await Promise.all(
      others.map(
        async (phone_number) => (await world!.api('/api/v1/acme/phone_verifications', { json: { phone_number } })).body.verification_id,
      ),
    );
    for (const id of ids) await expect.poll(async () => (await show(world!, id)).body.delivery.status).toBe('sent');
    expect((await show(world, slow)).body.delivery.status).toBe('queued');
  });
  it('keeps 128 codes on their way at once while the provider takes its time, and sends the rest as it answers', async () => {
    world = await verificationWorld();
    let release!: () => void;
    const held = new Promise((resolve) => (release = () => resolve(undefined)));
    const numbers = Array.from({ length: 150 }, (_, i) => `+569${String(30_000_000 + i)}`);
    world.graph.queue(...numbers.map(() => ({ ...graphAccepted(), until: held })));
    const created = await Promise.all(
      numbers.map((phone_number) => world!.api('/api/v1/acme/phone_verifications', { json: { phone_number } })),
    );
    expect(created.map((answer) => answer.status)).toEqual(numbers.map(() => 201));
    // None answered yet: each of these is a send under way.
    await world.graph.waitForRequests(128);
    release();
    await world.graph.waitForRequests(150);
    await outboxSettled(world.platform);
    expect(new Set(world.graph.requests.map((call) => JSON.parse(call.body).to as string)).size).toBe(150);
  });
});

describe('provider outages', () => {
  const unavailable = { status: 503, body: { error: { message: 'Service temporarily unavailable' } } };

  it('keep a code retried while it is valid, and deliver it when the provider is back minutes later', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now, delivery: { backoffBaseMs: 1000, maxBackoffMs: 30_000 } });
    const outage = 12;
    world.graph.queue(...Array.from({ length: outage }, () => unavailable));
    const id = (await create(world)).body.verification_id;
    for (let failed = 1; failed <= outage; failed++) {
      await failedAttempts(world, failed);
      clock.advance(40); // past the longest wait between attempts: 30 s, +20 % jitter
    }
    // Eight minutes of outage, far past the 8 attempts (about 141 s) after which delivery once gave up.
    const code = await world.deliveredCode(outage);
    await expect.poll(async () => (await show(world!, id)).body.delivery.status).toBe('sent');
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code } })).body).toEqual({ verified: true });
  });

  it('give up on a code that expired before it could be delivered, without sending it', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    world.graph.queue(unavailable);
    const id = (await create(world)).body.verification_id;
    await failedAttempts(world, 1);
    clock.advance(601); // the code's 10 minutes are over; the provider would accept now
    await expect.poll(async () => (await show(world!, id)).body.delivery.status).toBe('failed');
    const { delivery } = (await show(world, id)).body;
    expect(delivery.error).toContain('expired before it could be delivered');
    expect(delivery.error).toContain('Service temporarily unavailable');
    expect(world.graph.requests).toHaveLength(1);
  });
});

describe('a sender that takes the send and says nothing', () => {
  const heldForever = new Promise(() => {});

  it('fails the attempt after SVC_SENDER_TIMEOUT_MS and retries it with backoff; the code is delivered once WhatsApp answers', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now, providers: { timeoutMs: 300 }, delivery: { backoffBaseMs: 1000 } });
    world.graph.queue({ ...graphAccepted(), until: heldForever });
    const id = (await create(world)).body.verification_id;
    await failedAttempts(world, 1);
    expect(await waiting(world.platform)).toMatchObject({
      lastError: 'no answer from the provider: no answer within 300 ms',
      unanswered: 1,
    });
    expect((await show(world, id)).body.delivery.status).toBe('queued');
    clock.advance(2); // past the backoff of a first retry: 1 s, +20 % jitter
    await expect.poll(async () => (await show(world!, id)).body.delivery.status).toBe('sent');
    const code = await world.deliveredCode(1);
    // The unanswered send may have arrived too: two sends, no more.
    expect(world.graph.requests).toHaveLength(2);
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code } })).body).toEqual({ verified: true });
  });

  it('never sends a code again once it is verified: a code that arrived although its send got no answer', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now, providers: { timeoutMs: 300 }, delivery: { backoffBaseMs: 1000 } });
    world.graph.queue({ ...graphAccepted(), until: heldForever });
    const id = (await create(world)).body.verification_id;
    await failedAttempts(world, 1);
    const code = await world.deliveredCode(0);
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code } })).body).toEqual({ verified: true });
    clock.advance(2);
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(1);
    expect((await show(world, id)).body).toMatchObject({
      status: 'verified',
      delivery: { status: 'failed', error: 'not sent: the verification is no longer pending (verified, blocked or expired)' },
    });
  });

  it('sends a code at most twice to a Twilio API that never answers: either may have arrived, so it gives up after the second', async () => {
    const silent = await startSilentPeer();
    const clock = fakeClock();
    const twilio = await twilioWorld({
      clock: clock.now,
      providers: { twilioApiUrl: silent.url, timeoutMs: 300 },
      delivery: { backoffBaseMs: 1000 },
    });
    const id = (await twilio.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
    await failedAttempts(twilio, 1);
    clock.advance(2);
    await expect.poll(async () => (await show(twilio, id)).body.delivery.status).toBe('failed');
    expect((await show(twilio, id)).body.delivery.error).toBe(
      'the provider did not answer two sends (no answer from the provider: no answer within 300 ms); not sent a third time, as the first two may have arrived',
    );
    // Given up: nothing is left to send, however long the code stays valid.
    clock.advance(60);
    expect(await waiting(twilio.platform)).toBeUndefined();
    expect(silent.written).toBe(2);
    await twilio.stop();
    await silent.close();
  });
});

describe('restarts', () => {
  it('loses nothing that was queued: a message queued before a restart is sent after it', async () => {
    const graph = await startFakeProvider(graphAccepted);
    graph.queue({ status: 503, body: { error: { message: 'down' } } });
    const first = await startPlatform({ providers: { whatsappGraphUrl: graph.url }, delivery: { backoffBaseMs: 60_000 } });
    const token = await createUserWithToken(first, 'ada@example.com');
    await request(`${first.url}/cli/workspaces`, { token, json: { slug: 'acme' } });
    await request(`${first.url}/api/developer/v1/acme/sender`, {
      token,
      method: 'PUT',
      json: { kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'tok', template: 'otp_code' },
    });
    const created = await request(`${first.url}/api/v1/acme/phone_verifications`, { token, json: { phone_number: number } });
    await graph.waitForRequests(1);
    await first.halt();
    graph.queue(); // the provider is back
    const second = await startPlatform({
      dataDir: first.dataDir,
      databaseUrl: first.databaseUrl,
      secretKey: first.secretKey,
      providers: { whatsappGraphUrl: graph.url },
      // Two minutes later: the retry scheduled before the restart is due.
      clock: () => new Date(Date.now() + 120_000),
    });
    const [, resent] = await graph.waitForRequests(2);
    const code = JSON.parse(resent!.body).template.components[0].parameters[0].text;
    const id = created.body.verification_id;
    const verified = await request(`${second.url}/api/v1/acme/phone_verifications/${id}/verify`, { token, json: { code } });
    expect(verified.body).toEqual({ verified: true });
    await second.stop();
    await graph.close();
  });
});

describe('Twilio WhatsApp sender', () => {
  it('posts a form with Basic auth, the content template, its variables and a status callback', async () => {
    const twilio = await twilioWorld();
    expect(twilio.configured.status).toBe(200);
    const created = await twilio.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } });
    const [sent] = await twilio.twilio.waitForRequests(1);
    expect(sent!.path).toBe(`/2010-04-01/Accounts/${twilioSender.account_sid}/Messages.json`);
    expect(sent!.headers.authorization).toBe(`Basic ${Buffer.from(`${twilioSender.account_sid}:twilio-auth-token`).toString('base64')}`);
    expect(sent!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(sent!.body);
    expect(form.get('To')).toBe(`whatsapp:${number}`);
    expect(form.get('From')).toBe(twilioSender.from);
    expect(form.get('ContentSid')).toBe(twilioSender.content_sid);
    // The callback names the outbox message, so that a status names it even when this send gets no answer.
    expect(form.get('StatusCallback')).toMatch(new RegExp(`^${twilio.platform.url}/webhooks/twilio/acme\\?message=msg_\\w+$`));
    const code = JSON.parse(form.get('ContentVariables')!)['1'];
    expect(code).toMatch(/^\d{6}$/);
    const verified = await twilio.api(`/api/v1/acme/phone_verifications/${created.body.verification_id}/verify`, { json: { code } });
    expect(verified.body).toEqual({ verified: true });
    await twilio.stop();
  });
});
