import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeProvider, startFakeProvider } from '@svc/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, type EgressRules, egressRefusal, toolSpec } from '../src/index.ts';

const publicOnly: EgressRules = { allowPrivateNetworks: false, platformPorts: new Set([8080, 8081]) };
const privateAllowed: EgressRules = { allowPrivateNetworks: true, platformPorts: new Set([8080, 8081]) };

describe('the egress rules', () => {
  it.each([
    ['93.184.215.14', 443],
    ['2606:4700:4700::1111', 443],
    ['64:ff9b::5db8:d70e', 80], // NAT64 form of a public IPv4 address
  ])('let a tool reach the public address %s', (address, port) => {
    expect(egressRefusal(address, port, publicOnly)).toBeUndefined();
  });

  it.each([
    ['169.254.169.254', 'link-local or cloud metadata'],
    ['fd00:ec2::254', 'link-local or cloud metadata'],
    ['fe80::1', 'link-local or cloud metadata'],
    ['::ffff:169.254.169.254', 'link-local or cloud metadata'],
    ['64:ff9b::a9fe:a9fe', 'link-local or cloud metadata'],
    ['127.0.0.1', 'loopback or private'],
    ['::1', 'loopback or private'],
    ['0.0.0.0', 'loopback or private'],
    ['::ffff:127.0.0.1', 'loopback or private'],
    ['10.1.2.3', 'loopback or private'],
    ['172.16.0.9', 'loopback or private'],
    ['192.168.1.1', 'loopback or private'],
    ['100.64.0.1', 'loopback or private'],
    ['fd12:3456::1', 'loopback or private'],
    ['224.0.0.1', 'not a public unicast address'],
    ['255.255.255.255', 'not a public unicast address'],
  ])('refuse %s by default (%s)', (address, reason) => {
    expect(egressRefusal(address, 80, publicOnly)).toContain(reason);
  });

  it("allow loopback and private networks when told to, but never link-local addresses or the platform's own ports", () => {
    expect(egressRefusal('127.0.0.1', 9000, privateAllowed)).toBeUndefined();
    expect(egressRefusal('10.1.2.3', 8081, privateAllowed)).toBeUndefined();
    expect(egressRefusal('169.254.169.254', 80, privateAllowed)).toContain('link-local');
    expect(egressRefusal('127.0.0.1', 8081, privateAllowed)).toContain("this platform's own service");
    expect(egressRefusal('::1', 8080, privateAllowed)).toContain("this platform's own service");
    expect(egressRefusal('0.0.0.0', 8080, privateAllowed)).toContain("this platform's own service");
  });
});

const tool = (url: string, extra: Record<string, unknown> = {}) =>
  toolSpec.parse({
    name: 'order_status',
    description: 'Order status',
    url,
    headers: { 'X-Api-Key': '{{secrets.SHOP_KEY}}' },
    timeout_ms: 2000,
    ...extra,
  });
const secrets = { SHOP_KEY: 'shop-secret-123' };

/** A backend that answers every request with a redirect to `target()`. */
async function startRedirector(target: () => string, status = 302): Promise<{ url: string; hits: number; server: Server }> {
  const state = {
    url: '',
    hits: 0,
    server: createServer((_req, res) => {
      state.hits++;
      res.writeHead(status, { location: target() }).end();
    }),
  };
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

describe('tool calls', () => {
  let backend: FakeProvider;
  let servers: Server[];
  beforeEach(async () => {
    backend = await startFakeProvider((req) => ({ status: 200, body: { status: 'shipped', key_seen: req.headers['x-api-key'] ?? null } }));
    servers = [];
  });
  afterEach(async () => {
    await backend.close();
    for (const server of servers) server.close();
  });
  const platformOf = (port: number): EgressRules => ({ allowPrivateNetworks: true, platformPorts: new Set([port]) });
  const portOf = (url: string) => Number(new URL(url).port);

  it('refuse a host name that resolves to loopback unless private networks are allowed, checking the resolved address', async () => {
    const url = `http://localhost:${portOf(backend.url)}/orders/{{args.id}}`;
    const refused = await callTool(tool(url), { id: 'A-1' }, secrets, { ...publicOnly, platformPorts: new Set() });
    expect(refused).toMatchObject({
      status: null,
      error: expect.stringMatching(/^refused: localhost resolves to .* loopback or private address/),
    });
    expect(backend.received).toBe(0);

    const allowed = await callTool(tool(url), { id: 'A-1' }, secrets, { allowPrivateNetworks: true, platformPorts: new Set() });
    expect(allowed).toMatchObject({ status: 200, error: null, response: { status: 'shipped' } });
  });

  it("refuse the platform's own port even where private networks are allowed, by address and by name", async () => {
    const rules = platformOf(portOf(backend.url));
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const call = await callTool(tool(`http://${host}:${portOf(backend.url)}/trpc/health.ping`), {}, secrets, rules);
      expect(call.error).toMatch(/^refused: .*this platform's own service/);
    }
    expect(backend.received).toBe(0);
  });

  it('refuse the cloud metadata address whatever the rules', async () => {
    const call = await callTool(tool('http://169.254.169.254/latest/meta-data/'), {}, secrets, privateAllowed);
    expect(call).toMatchObject({ status: null, error: 'refused: 169.254.169.254 is a link-local or cloud metadata address' });
  });

  it('check every redirect before following it: a hop to a refused address fails the call', async () => {
    const toMetadata = await startRedirector(() => 'http://169.254.169.254/latest/meta-data/iam/');
    const toPlatform = await startRedirector(() => `http://localhost:${portOf(backend.url)}/trpc/health.ping`, 307);
    servers.push(toMetadata.server, toPlatform.server);
    const metadata = await callTool(tool(`${toMetadata.url}/orders/A-1`), {}, secrets, privateAllowed);
    expect(metadata).toMatchObject({
      status: null,
      error: 'refused: redirected to http://169.254.169.254: 169.254.169.254 is a link-local or cloud metadata address',
    });
    const platform = await callTool(tool(`${toPlatform.url}/orders/A-1`), {}, secrets, platformOf(portOf(backend.url)));
    expect(platform.error).toMatch(/^refused: redirected to http:\/\/localhost:\d+: localhost resolves to .*this platform's own service/);
    expect(backend.received).toBe(0);
    expect([toMetadata.hits, toPlatform.hits]).toEqual([1, 1]);
  });

  it("follow an allowed redirect, sending the tool's headers (and secrets) only to the tool's own origin", async () => {
    const sameOrigin = await startRedirector(() => `${sameOrigin.url}/moved`);
    const elsewhere = await startRedirector(() => `${backend.url.replace('127.0.0.1', 'localhost')}/orders/A-1`);
    servers.push(sameOrigin.server, elsewhere.server);
    // The first redirector sends itself to /moved forever: more than five hops is an error.
    const loop = await callTool(tool(`${sameOrigin.url}/orders`), {}, secrets, { allowPrivateNetworks: true, platformPorts: new Set() });
    expect(loop.error).toBe('more than 5 redirects');
    expect(sameOrigin.hits).toBe(6);

    const moved = await callTool(tool(`${elsewhere.url}/orders/A-1`), {}, secrets, {
      allowPrivateNetworks: true,
      platformPorts: new Set(),
    });
    expect(moved).toMatchObject({ status: 200, response: { status: 'shipped', key_seen: null } });
    expect(backend.requests[0]!.path).toBe('/orders/A-1');
  });

  it('name the secrets the environment lacks instead of calling, and say when a secret makes no URL', async () => {
    const missing = await callTool(tool('{{secrets.BACKEND_URL}}/orders/{{args.id}}'), { id: 'A-1' }, {}, privateAllowed);
    expect(missing).toMatchObject({
      status: null,
      request: { url: '{{secrets.BACKEND_URL}}/orders/{{args.id}}' },
      error: 'missing secrets BACKEND_URL, SHOP_KEY: not set in this environment (svc secrets set NAME --env ENV)',
    });
    const notUrl = await callTool(tool('{{secrets.BACKEND_URL}}/orders'), {}, { ...secrets, BACKEND_URL: 'shop.internal' }, privateAllowed);
    expect(notUrl.error).toBe('the URL is not valid once its secrets and arguments are filled in');
  });

  it('refuse schemes other than http and https', async () => {
    const call = await callTool(tool('file:///etc/passwd'), {}, secrets, privateAllowed);
    expect(call.error).toBe('refused: file: URLs are not allowed; tools call http or https');
  });

  it('record a backend that does not answer in time as a timeout', async () => {
    backend.queue({ status: 200, body: {}, delayMs: 2000 });
    const call = await callTool(tool(`${backend.url}/orders/A-1`, { timeout_ms: 200 }), {}, secrets, {
      allowPrivateNetworks: true,
      platformPorts: new Set(),
    });
    expect(call).toMatchObject({ status: null, error: 'timed out after 200 ms' });
  });
});
