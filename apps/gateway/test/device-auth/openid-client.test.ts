import { request } from '@svc/testkit';
import * as oauth from 'openid-client';
import { afterEach, expect, it } from 'vitest';
import { startGatewayWithoutCore, startPlatform, type TestPlatform } from '../platform.ts';

let platform: TestPlatform;
afterEach(() => platform?.stop());

/** openid-client as an OAuth client finds the server: through its metadata (RFC 8414), from the base URL alone. */
async function client(baseUrl: string, clientId = 'svc-test-client') {
  const config = await oauth.discovery(new URL(baseUrl), clientId, undefined, undefined, {
    algorithm: 'oauth2',
    execute: [oauth.allowInsecureRequests],
  });
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

it('publishes its metadata (RFC 8414): the issuer, both device flow endpoints and the device code grant', async () => {
  platform = await startPlatform();
  const { config } = await client(platform.url);
  expect(config.serverMetadata()).toMatchObject({
    issuer: platform.url,
    device_authorization_endpoint: `${platform.url}/cli/device_authorizations`,
    token_endpoint: `${platform.url}/cli/device_authorizations/token`,
    grant_types_supported: ['urn:ietf:params:oauth:grant-type:device_code'],
  });
});

it('runs the whole device flow: form-encoded start, pending polls, approval, the token', async () => {
  platform = await startPlatform();
  const { config, polls } = await client(platform.url);
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
  const { config } = await client(platform.url);
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
  await expect(oauth.initiateDeviceAuthorization((await client(platform.url)).config, { email: 'ada@example.com' })).rejects.toMatchObject({
    name: 'ResponseBodyError',
    error: 'email_not_configured',
    status: 409,
  });
  const down = await startGatewayWithoutCore();
  try {
    // OAuth clients read an error body of 4xx answers only; the body of this one has its own test.
    const failed = await oauth.initiateDeviceAuthorization((await client(down.url)).config, {}).catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'ClientError', code: 'OAUTH_RESPONSE_IS_NOT_CONFORM' });
    expect((failed as { cause?: Response }).cause?.status).toBe(503);
  } finally {
    await down.stop();
  }
});
