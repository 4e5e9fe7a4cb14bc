import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bufferedFetch, closeServer, listen } from '../src/index.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/empty') return void response.writeHead(204).end();
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.writeHead(201, { 'content-type': 'application/json', 'x-echo-method': request.method ?? '' });
      response.end(JSON.stringify({ got: Buffer.concat(chunks).toString('utf8'), auth: request.headers.authorization ?? null }));
    });
  });
  url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});

afterAll(() => closeServer(server));

const post = () =>
  bufferedFetch(`${url}/echo`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify({ hi: 'é' }) });

it('sends the method, headers and body, and answers the status, headers and JSON body', async () => {
  const response = await post();
  expect(response).toBeInstanceOf(Response);
  expect(response.status).toBe(201);
  expect(response.ok).toBe(true);
  expect(response.headers.get('x-echo-method')).toBe('POST');
  expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  expect(await response.json()).toEqual({ got: '{"hi":"é"}', auth: 'Bearer t' });
});

it('reads the body once, whichever way it is read, as a Response does', async () => {
  const response = await post();
  expect(response.bodyUsed).toBe(false);
  const text = await response.text();
  expect(JSON.parse(text)).toMatchObject({ auth: 'Bearer t' });
  expect(response.bodyUsed).toBe(true);
  await expect(response.json()).rejects.toThrow(TypeError);
  expect(() => response.clone()).toThrow(TypeError);
});

it('gives the body as a stream to a reader that asks for one, and a clone reads it again', async () => {
  const response = await post();
  const copy = response.clone();
  const streamed = await new Response(response.body).text();
  expect(JSON.parse(streamed)).toMatchObject({ got: '{"hi":"é"}' });
  expect(response.bodyUsed).toBe(true);
  expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe(streamed);
});

it('answers a 204 with no body', async () => {
  const response = await bufferedFetch(`${url}/empty`);
  expect(response.status).toBe(204);
  expect(response.body).toBeNull();
  expect(await response.text()).toBe('');
});
