import { Validator } from '@seriousme/openapi-schema-validator';
import { request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../../testing/platform.ts';
import { type Conformance, conformance } from './conformance.ts';

let platform: TestPlatform;
let api: Conformance;
let token: string;
beforeAll(async () => {
  platform = await startPlatform();
  api = await conformance(platform.url);
  token = await createUserWithToken(platform, 'ada@example.com');
});
afterAll(() => platform.stop());

it('serves a valid OpenAPI 3.1 document', async () => {
  const { status, body: doc } = await request(`${platform.url}/openapi.json`);
  expect(status).toBe(200);
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.servers[0].url).toBe(platform.url);
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

it('describes the real answers of the workspace endpoints, errors included', async () => {
  const base = `${platform.url}/cli/workspaces`;
  expect((await api.request(base, { token, json: { slug: 'acme', name: 'Acme' } })).status).toBe(201);
  expect((await api.request(base, { token, json: { slug: 'acme' } })).status).toBe(409);
  expect((await api.request(base, { token, json: { slug: 'A' } })).status).toBe(400);
  expect((await api.request(base, { token, body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  expect((await api.request(base, { token: 'svc_wrong', json: { slug: 'other' } })).status).toBe(401);
  expect((await api.request(base, { token })).status).toBe(200);
  expect((await api.request(`${base}/acme`, { token })).status).toBe(200);
  expect((await api.request(`${base}/nope`, { token })).status).toBe(404);
  expect((await api.request(`${platform.url}/cli/whoami`, { token })).status).toBe(200);
  expect((await api.request(`${platform.url}/healthz`)).status).toBe(200);
});

it('describes the real answers of the device flow and the tokens', async () => {
  expect((await api.request(`${platform.url}/cli/device_authorizations`, { json: { client_name: 'svc CLI' } })).status).toBe(200);
  expect((await api.request(`${platform.url}/cli/tokens`, { token })).status).toBe(200);
});

it('fails on an answer the document does not describe', async () => {
  // The check itself must be able to fail: a status the operation does not document is caught.
  await expect(api.request(`${platform.url}/healthz`, { method: 'DELETE' })).rejects.toThrow(/not in the document|not documented/);
});
