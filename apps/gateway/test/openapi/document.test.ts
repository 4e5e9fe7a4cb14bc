import { Validator } from '@seriousme/openapi-schema-validator';
import { request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../testing/platform.ts';
import { type Conformance, conformance } from './conformance.ts';

let platform: TestPlatform;
let api: Conformance;
beforeAll(async () => {
  platform = await startPlatform();
  api = await conformance(platform.url);
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

it('fails on an answer the document does not describe', async () => {
  // The check itself must be able to fail: a status the operation does not document is caught.
  await expect(api.request(`${platform.url}/healthz`, { method: 'DELETE' })).rejects.toThrow(/not in the document|not documented/);
});
