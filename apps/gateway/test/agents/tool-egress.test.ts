import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeProvider, request, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, type PlatformOptions, startPlatform, type TestPlatform } from '../platform.ts';
import { orderAgent } from './order-agent.ts';

/** An agent whose tool calls wherever the environment's BACKEND_URL secret says. */
const files = orderAgent({ url: '{{secrets.BACKEND_URL}}' });

interface World {
  platform: TestPlatform;
  /** The trace of the tool call made when the agent in `environment` (whose BACKEND_URL is `backendUrl`) is asked for an order. */
  toolCall(environment: string, backendUrl: string): Promise<{ status: number | null; error: string | null }>;
}

async function world(options: PlatformOptions): Promise<World> {
  const platform = await startPlatform(options);
  const token = await createUserWithToken(platform, 'ada@example.com');
  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${platform.url}${path}`, { token, ...init });
  await api('/cli/workspaces', { json: { slug: 'acme' } });
  return {
    platform,
    async toolCall(environment, backendUrl) {
      expect((await api('/api/developer/v1/acme/deployments', { json: { environment, files } })).status).toBe(201);
      await api(`/api/developer/v1/acme/environments/${environment}/secrets/BACKEND_URL`, { method: 'PUT', json: { value: backendUrl } });
      const chat = (await api('/api/v1/acme/chats', { json: { agent: 'support', environment } })).body;
      const answer = await api(`/api/v1/acme/chats/${chat.chat_id}/messages`, { json: { text: 'where is order A-1?' } });
      expect(answer.status).toBe(201);
      const { messages } = (await api(`/api/developer/v1/acme/chats/${chat.chat_id}`)).body;
      return messages[1].trace.tool_calls[0];
    },
  };
}

let backend: FakeProvider;
let redirector: Server;
let redirectTo = '';
const portOf = (url: string) => new URL(url).port;
beforeAll(async () => {
  backend = await startFakeProvider(() => ({ status: 200, body: { status: 'shipped' } }));
  redirector = createServer((_req, res) => res.writeHead(302, { location: redirectTo }).end());
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await backend.close();
  redirector.close();
});
const redirectorUrl = () => `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;

describe('tool calls where private networks are allowed (local mode)', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ toolEgress: { allowPrivateNetworks: true } });
  });
  afterAll(() => w.platform.stop());

  it('reach a backend on loopback', async () => {
    expect(await w.toolCall('local', backend.url)).toMatchObject({ status: 200, error: null });
  });

  it("never reach core's port or the gateway's, by address or by name; the refusal is in the trace", async () => {
    const core = await w.toolCall('core', w.platform.core.url);
    expect(core).toMatchObject({
      status: null,
      error: `refused: 127.0.0.1 port ${portOf(w.platform.core.url)} is this platform's own service`,
    });
    const gateway = await w.toolCall('gateway', `http://localhost:${portOf(w.platform.url)}`);
    expect(gateway.error).toMatch(
      new RegExp(`^refused: localhost resolves to .* port ${portOf(w.platform.url)} is this platform's own service`),
    );
  });

  it('never reach the cloud metadata address, directly or through a redirect from an allowed backend', async () => {
    expect(await w.toolCall('metadata', 'http://169.254.169.254/latest')).toMatchObject({
      status: null,
      error: 'refused: 169.254.169.254 is a link-local or cloud metadata address',
    });
    redirectTo = 'http://169.254.169.254/latest/meta-data/';
    expect((await w.toolCall('redirect', redirectorUrl())).error).toBe(
      'refused: redirected to http://169.254.169.254: 169.254.169.254 is a link-local or cloud metadata address',
    );
    redirectTo = `${w.platform.core.url}/trpc/health.ping`;
    expect((await w.toolCall('redirect-core', redirectorUrl())).error).toMatch(
      /^refused: redirected to http:\/\/127\.0\.0\.1:\d+: .* this platform's own service/,
    );
  });
});

describe('tool calls by default (private networks not allowed)', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({});
  });
  afterAll(() => w.platform.stop());

  it('refuse a host name that resolves to loopback, and a loopback address', async () => {
    const received = backend.received;
    const byName = await w.toolCall('by-name', backend.url.replace('127.0.0.1', 'localhost'));
    expect(byName).toMatchObject({
      status: null,
      error: expect.stringMatching(/^refused: localhost resolves to 127\.0\.0\.1 is a loopback or private address/),
    });
    const byAddress = await w.toolCall('by-address', backend.url);
    expect(byAddress.error).toBe('refused: 127.0.0.1 is a loopback or private address; tools reach only public addresses');
    expect(backend.received).toBe(received);
  });
});
