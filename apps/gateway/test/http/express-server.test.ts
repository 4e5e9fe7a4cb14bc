import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, expect, it } from 'vitest';
import { createExpressServer } from '../../src/http/express-server.ts';

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

it("serves express's requests with express's methods and no prototype swapped on the way", async () => {
  const { server, serve } = createExpressServer();
  const made = new WeakMap<IncomingMessage, object | null>();
  server.prependListener('request', (req: IncomingMessage) => made.set(req, Object.getPrototypeOf(req)));
  const app = express();
  app.set('trust proxy', 'loopback');
  app.post('/echo', express.json(), (req, res) => {
    res.status(201).json({
      swapped: Object.getPrototypeOf(req) !== made.get(req),
      host: req.get('host'),
      ip: req.ip,
      body: req.body as unknown,
      query: req.query,
    });
  });
  serve(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => server.close());
  const { port } = server.address() as AddressInfo;

  const response = await fetch(`http://127.0.0.1:${port}/echo?page=2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
    body: JSON.stringify({ phone_number: '+56912345678' }),
  });

  expect(response.status).toBe(201);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({
    swapped: false,
    host: `127.0.0.1:${port}`,
    ip: '203.0.113.7',
    body: { phone_number: '+56912345678' },
    query: { page: '2' },
  });
});
