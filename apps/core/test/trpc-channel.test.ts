import { expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { callsPerFrameHeader, internalTokenHeader } from '@svc/server-kit';
import WebSocket from 'ws';
import type { ChannelAnswer, ChannelCall } from '../src/index.ts';
import { runningCore } from './running-core.ts';

const core = runningCore();

async function connect(): Promise<WebSocket> {
  const socket = new WebSocket(`${core.url.replace('http:', 'ws:')}/trpc`, { headers: { [internalTokenHeader]: core.internalToken } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return socket;
}

/** The next `count` answers, by id, in however many frames they come. */
function answers(socket: WebSocket, count: number): Promise<Map<number, ChannelAnswer>> {
  const byId = new Map<number, ChannelAnswer>();
  return new Promise((resolve) => {
    const read = (data: Buffer) => {
      for (const answer of JSON.parse(data.toString()) as ChannelAnswer[]) byId.set(answer.id, answer);
      if (byId.size < count) return;
      socket.off('message', read);
      resolve(byId);
    };
    socket.on('message', read);
  });
}

/** Expects a new channel to be served: health.ping answered. */
async function expectServed(): Promise<void> {
  const socket = await connect();
  const answered = answers(socket, 1);
  socket.send('[{"id":1,"type":"query","path":"health.ping"}]');
  expect((await answered).get(1)).toEqual({ id: 1, result: { data: { ok: true } } });
  socket.close();
}

const errorCode = (answer: ChannelAnswer | undefined) =>
  answer && 'error' in answer ? (answer.error as { data: { svc: { code: string } } }).data.svc.code : undefined;

it("answers every call of a frame by its id, each with its own caller's credentials", async () => {
  const { identity } = core.services;
  const ada = await identity.issueToken((await identity.findOrCreateUser('ada@example.com')).id, 'ada');
  const bob = await identity.issueToken((await identity.findOrCreateUser('bob@example.com')).id, 'bob');
  const socket = await connect();
  const calls: ChannelCall[] = [
    { id: 7, type: 'query', path: 'auth.whoami', authorization: `Bearer ${ada.token}` },
    { id: 8, type: 'query', path: 'auth.whoami', authorization: `Bearer ${bob.token}` },
    { id: 9, type: 'query', path: 'auth.whoami', authorization: 'Bearer svc_not_a_token' },
    { id: 10, type: 'query', path: 'health.ping' },
    { id: 11, type: 'mutation', path: 'no.such.procedure' },
    // A request id that is not one is dropped; the call is served all the same.
    { id: 12, type: 'query', path: 'health.ping', requestId: 'abc-123' },
    { id: 13, type: 'query', path: 'health.ping', requestId: 'not a request id\n' },
  ];
  const answered = answers(socket, calls.length);
  socket.send(JSON.stringify(calls));
  const byId = await answered;
  expect(byId.get(7)).toMatchObject({ result: { data: { user: { email: 'ada@example.com' } } } });
  expect(byId.get(8)).toMatchObject({ result: { data: { user: { email: 'bob@example.com' } } } });
  expect(errorCode(byId.get(9))).toBe('unauthorized');
  expect(byId.get(10)).toEqual({ id: 10, result: { data: { ok: true } } });
  expect(byId.get(11)).toMatchObject({ error: { data: { code: 'NOT_FOUND' } } });
  expect(byId.get(12)).toEqual({ id: 12, result: { data: { ok: true } } });
  expect(byId.get(13)).toEqual({ id: 13, result: { data: { ok: true } } });
  socket.close();
});

it('tells the gateway, as the channel opens, that a core on SQLite takes eight calls in a frame', async () => {
  const socket = new WebSocket(`${core.url.replace('http:', 'ws:')}/trpc`, { headers: { [internalTokenHeader]: core.internalToken } });
  const answer = await new Promise<IncomingMessage>((resolve, reject) => socket.once('upgrade', resolve).once('error', reject));
  expect(answer.headers[callsPerFrameHeader]).toBe('8');
  socket.close();
});

it('closes a channel that sends anything but an array of calls, and serves the next one', async () => {
  for (const frame of [
    '{nope',
    '{"id":1}',
    '[{"id":"one","type":"query","path":"health.ping"}]',
    '[{"id":1,"type":"delete","path":"health.ping"}]',
  ]) {
    const socket = await connect();
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send(frame);
    expect(await closed).toBe(1007);
  }
  await expectServed();
});

it('survives a frame that breaks the WebSocket protocol: it closes that channel alone', async () => {
  const socket = await connect();
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  socket.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false }); // a text frame that is not UTF-8
  expect(await closed).toBe(1007);
  await expectServed();
});

it('refuses an upgrade anywhere but /trpc', async () => {
  const socket = new WebSocket(`${core.url.replace('http:', 'ws:')}/healthz`, { headers: { [internalTokenHeader]: core.internalToken } });
  await expect(new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))).rejects.toThrow();
});
