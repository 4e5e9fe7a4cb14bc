import { request } from '@svc/testkit';
import { startPlatform, type TestPlatform } from '../testing/platform.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endpoints } from '../src/endpoints/index.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.stop());

it('serves an OpenAPI 3.1 document with every public endpoint', async () => {
  const { status, body: doc } = await request(`${platform.url}/openapi.json`);
  expect(status).toBe(200);
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.servers[0].url).toBe(platform.url);
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(operations.sort()).toEqual(
    endpoints.map((ep) => `${ep.method.toUpperCase()} ${ep.path.replace(/:(\w+)/g, '{$1}')}`).sort(),
  );
  expect(operations).toEqual(expect.arrayContaining(['GET /cli/workspaces', 'POST /cli/workspaces', 'GET /healthz']));
});

it('describes bodies, answers and errors from the zod schemas', async () => {
  const { body: doc } = await request(`${platform.url}/openapi.json`);
  const create = doc.paths['/cli/workspaces'].post;
  expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateWorkspaceRequest');
  expect(doc.components.schemas.CreateWorkspaceRequest.properties.slug.pattern).toBe('^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$');
  expect(doc.components.schemas.CreateWorkspaceRequest.required).toEqual(['slug']);
  expect(create.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/Workspace');
  expect(create.responses['409'].description).toContain('slug_taken');
  expect(create.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  expect(create.security).toEqual([{ bearer: [] }]);
  expect(doc.paths['/healthz'].get.security).toEqual([]);
});
