import { request } from '@svc/testkit';
import * as oauth from 'openid-client';
import { afterEach, expect, it } from 'vitest';
import { startGatewayWithoutCore, startPlatform, type TestPlatform } from '../platform.ts';

let platform: TestPlatform;
afterEach(() => platform?.stop());

/** openid-client configured by hand with our endpoints (the server publishes no discovery document). */
function client(baseUrl: string, clientId = 'svc-test-client') {
  const config = new oauth.Configuration(
    {
      issuer: baseUrl,
      device_authorization_endpoint: `${baseUrl}/cli/device_authorizations`,
      token_endpoint: `${baseUrl}/cli/device_authorizations/token`,
    },
    clientId,
  );
  oauth.allowInsecureRequests(config);
  const polls: string[] = [];
  config[oauth.customFetch] = async (url, options) => {
    const response = await fetch(url, options);
    if (url.endsWith('/token')) polls.push(((await response.clone().json()) as { error?: string }).error ?? 'granted');
    return response;
  };
  return { config, polls };
}

async function decide(userCode: string, decision: 'approved' | 'denied') {
  const { identity, deviceAuth } = platform.core.services;
  const user = await identity.findOrCreateUser('ada@example.com');
  await deviceAuth.decide(userCode, user.id, decision, '127.0.0.1');
}

it('runs the whole device flow: form-encoded start, pending polls, approval, the token', async () => {
  platform = await startPlatform();
  const { config, polls } = client(platform.url);
  const started = await oauth.initiateDeviceAuthorization(config, { scope: 'openid', hostname: 'build-box' });
  expect(started).toMatchObject({ verification_uri: `${platform.url}/device`, interval: 5, expires_in: 900 });
  expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  const granted = oauth.pollDeviceAuthorizationGrant(config, started);
  await expect.poll(() => polls, { interval: 100 }).toEqual(['authorization_pending']);
  await decide(started.user_code, 'approved');
  const tokens = await granted;
  expect(tokens.token_type.toLowerCase()).toBe('bearer');
  expect(tokens.access_token).toMatch(/^svc_/);
  expect(polls).toEqual(['authorization_pending', 'granted']);
  const me = await request(`${platform.url}/cli/whoami`, { token: tokens.access_token });
  expect(me.body).toMatchObject({ user: { email: 'ada@example.com' }, token: { name: 'svc-test-client on build-box' } });
});

it('hands a denial to the client as access_denied', async () => {
  platform = await startPlatform();
  const { config } = client(platform.url);
  const started = await oauth.initiateDeviceAuthorization(config, {});
  await decide(started.user_code, 'denied');
  await expect(oauth.pollDeviceAuthorizationGrant(config, started)).rejects.toMatchObject({
    name: 'ResponseBodyError',
    error: 'access_denied',
    status: 400,
  });
});

it('reads an error of the start in OAuth shape, and a 503 as a server error', async () => {
  platform = await startPlatform();
  await expect(oauth.initiateDeviceAuthorization(client(platform.url).config, { email: 'ada@example.com' })).rejects.toMatchObject({
    name: 'ResponseBodyError',
    error: 'email_not_configured',
    status: 409,
  });
  const down = await startGatewayWithoutCore();
  try {
    // OAuth clients read an error body of 4xx answers only; the body of this one has its own test.
    const failed = await oauth.initiateDeviceAuthorization(client(down.url).config, {}).catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'ClientError', code: 'OAUTH_RESPONSE_IS_NOT_CONFORM' });
    expect((failed as { cause?: Response }).cause?.status).toBe(503);
  } finally {
    await down.stop();
  }
});
