import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
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

it('fails on an undocumented status, a body off its schema, or a documented header left out', async () => {
  // A server that serves the real document but answers as it should not.
  const document = (await request(`${platform.url}/openapi.json`)).body;
  const answers: Record<string, { status: number; body: unknown; headers?: Record<string, string> }> = {
    '/cli/whoami': { status: 401, body: { error: { code: 'unauthorized', message: 'no' } } },
    '/cli/workspaces': { status: 404, body: { error: { code: 'workspace_not_found', message: 'no' } }, headers: {} },
    '/cli/tokens': { status: 200, body: { tokens: [{ id: 1 }] } },
    '/healthz': {
      status: 503,
      body: { error: { code: 'core_unavailable', message: 'down' }, extra: true },
      headers: { 'retry-after': '5' },
    },
  };
  const liar = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/openapi.json') {
      res.setHeader('content-type', 'application/json').end(JSON.stringify(document));
      return;
    }
    const answer = answers[path]!;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
  try {
    const checker = await conformance(base);
    await expect(checker.request(`${base}/cli/whoami`)).rejects.toThrow(/header WWW-Authenticate is missing/);
    await expect(checker.request(`${base}/cli/workspaces`)).rejects.toThrow(/status 404 is not documented/);
    await expect(checker.request(`${base}/cli/tokens`)).rejects.toThrow(/tokens 200: body .*must/);
    await expect(checker.request(`${base}/healthz`)).rejects.toThrow(/must NOT have additional properties/);
  } finally {
    liar.close();
  }
});
