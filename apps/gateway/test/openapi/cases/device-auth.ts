import { deviceCodeGrantType } from '@svc/domain';
import { expect } from 'vitest';
import type { OperationCases, World } from '../world.ts';

const start = async ({ api }: World) => (await api.call('startDeviceAuthorization', { form: { client_id: 'conformance' } })).body;

async function decide({ platform }: World, userCode: string, decision: 'approved' | 'denied') {
  const { identity, deviceAuth } = platform.core.services;
  const user = await identity.findOrCreateUser('ada@example.com');
  await deviceAuth.decide(userCode, user.id, decision, '127.0.0.1');
}

export const deviceAuthCases: OperationCases = {
  startDeviceAuthorization: {
    sample: () => ({ json: { client_name: 'svc CLI' } }),
    async answers(world) {
      const { api } = world;
      expect((await api.call('startDeviceAuthorization', { form: { client_id: 'x', scope: 'all' } })).status).toBe(200);
      expect((await api.call('startDeviceAuthorization')).status).toBe(200);
      const mail = await api.call('startDeviceAuthorization', { json: { email: 'ada@example.com' } });
      expect(mail.body.error).toBe('email_not_configured');
      // From an address of its own, so the limit spent here is no other case's.
      const headers = { 'x-forwarded-for': '203.0.113.7' };
      let answer;
      for (let i = 0; i < 40 && answer?.status !== 429; i++) answer = await api.call('startDeviceAuthorization', { headers });
      expect(answer?.body).toMatchObject({ error: 'rate_limited', retry_after_seconds: expect.any(Number) });
    },
  },
  pollDeviceToken: {
    sample: () => ({ form: { grant_type: deviceCodeGrantType, device_code: 'unknown' } }),
    async answers(world) {
      const { api, clock } = world;
      const poll = (device_code: string, grant_type = deviceCodeGrantType) =>
        api.call('pollDeviceToken', { form: { grant_type, device_code, client_id: 'conformance' } });
      const granted = await start(world);
      expect((await poll(granted.device_code)).body.error).toBe('authorization_pending');
      expect((await poll(granted.device_code)).body).toMatchObject({ error: 'slow_down', interval: 10 });
      await decide(world, granted.user_code, 'approved');
      clock.advance(10);
      expect((await poll(granted.device_code)).body.token_type).toBe('Bearer');
      expect((await poll('no-such-code')).body.error).toBe('invalid_grant');
      expect((await poll(granted.device_code, 'authorization_code')).body.error).toBe('unsupported_grant_type');
      expect((await api.call('pollDeviceToken', { json: {} })).body.error).toBe('invalid_request');
      const denied = await start(world);
      await decide(world, denied.user_code, 'denied');
      expect((await poll(denied.device_code)).body.error).toBe('access_denied');
      const expired = await start(world);
      clock.advance(900);
      expect((await poll(expired.device_code)).body.error).toBe('expired_token');
    },
  },
};
