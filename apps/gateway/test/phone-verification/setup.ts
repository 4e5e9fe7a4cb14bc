import {
  type FakeProvider,
  graphAccepted,
  type JsonResponse,
  type RequestOptions,
  request,
  startFakeProvider,
  twilioAccepted,
} from '@svc/testkit';
import { expect } from 'vitest';
import { createUserWithToken, type PlatformOptions, startPlatform, type TestPlatform } from '../platform.ts';

export const number = '+56912345678';

/**
 * Resolves once no message is waiting in the outbox (every one is sent, failed or superseded): from then on,
 * nothing more can reach a provider, so a test may assert that something was not sent.
 */
export async function outboxSettled(platform: TestPlatform): Promise<void> {
  await expect.poll(async () => (await platform.core.services.store.outbox.due('9999-12-31T00:00:00.000Z', 1)).length).toBe(0);
}

/** A controllable clock: tests move time instead of waiting. */
export function fakeClock(start = '2026-06-01T12:00:00.000Z') {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
}

export interface VerificationWorld {
  platform: TestPlatform;
  graph: FakeProvider;
  token: string;
  api: (path: string, init?: RequestOptions) => Promise<JsonResponse>;
  /** The code delivered in the n-th message the fake Graph API received (0-based). */
  deliveredCode(index: number): Promise<string>;
  stop(): Promise<void>;
}

/** A platform whose workspace `acme` sends through WhatsApp Cloud, against a fake Graph API. */
export async function verificationWorld(options: PlatformOptions = {}): Promise<VerificationWorld> {
  const graph = await startFakeProvider(graphAccepted);
  const platform = await startPlatform({ ...options, providers: { whatsappGraphUrl: graph.url, ...options.providers } });
  const token = await createUserWithToken(platform, 'ada@example.com');
  const api: VerificationWorld['api'] = (path, init = {}) => request(`${platform.url}${path}`, { token, ...init });
  await api('/cli/workspaces', { json: { slug: 'acme' } });
  await api('/api/developer/v1/acme/sender', {
    method: 'PUT',
    json: {
      kind: 'whatsapp_cloud',
      phone_number_id: '1234567890',
      access_token: 'EAAG-secret-access-token',
      app_secret: 'meta-app-secret',
      template: 'otp_code',
      language: 'en_US',
    },
  });
  return {
    platform,
    graph,
    token,
    api,
    async deliveredCode(index) {
      const requests = await graph.waitForRequests(index + 1);
      const body = JSON.parse(requests[index]!.body);
      return body.template.components[0].parameters[0].text as string;
    },
    async stop() {
      await platform.stop();
      await graph.close();
    },
  };
}

export const twilioSender = {
  kind: 'twilio_whatsapp',
  account_sid: `AC${'a'.repeat(32)}`,
  auth_token: 'twilio-auth-token',
  from: 'whatsapp:+14155238886',
  content_sid: `HX${'b'.repeat(32)}`,
} as const;

/** A platform whose workspace `acme` sends through Twilio's WhatsApp sender, against a fake Twilio API unless told. */
export async function twilioWorld(options: PlatformOptions = {}) {
  const twilio = await startFakeProvider(twilioAccepted);
  const platform = await startPlatform({ ...options, providers: { twilioApiUrl: twilio.url, ...options.providers } });
  const token = await createUserWithToken(platform, 'ada@example.com');
  const api = (path: string, init: RequestOptions = {}) => request(`${platform.url}${path}`, { token, ...init });
  await api('/cli/workspaces', { json: { slug: 'acme' } });
  const configured = await api('/api/developer/v1/acme/sender', { method: 'PUT', json: twilioSender });
  return {
    twilio,
    platform,
    api,
    configured,
    async stop() {
      await platform.stop();
      await twilio.close();
    },
  };
}
