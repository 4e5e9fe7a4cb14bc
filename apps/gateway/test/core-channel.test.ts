import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@svc/server-kit';
import { freePort, request } from '@svc/testkit';
import { pino } from 'pino';
import { createUserWithToken, startPlatform } from './platform.ts';
import { expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { CoreChannel } from '../src/core-channel.ts';
import { connectCoreChannel } from '../src/core-client.ts';
import { startGateway } from '../src/index.ts';

it("gives each of many calls made at once its own answer, with its own caller's identity", async () => {
  const platform = await startPlatform();
  const tokens = await Promise.all(['ada', 'bob', 'cy'].map((name) => createUserWithToken(platform, `${name}@example.com`)));
  const core = connectCoreChannel(platform.core.url, platform.internalToken);
  const calls = Array.from({ length: 300 }, (_, i) => {
    const token = tokens[i % tokens.length]!;
    return core.client.auth.whoami.query(undefined, { context: { authorization: `Bearer ${token}` } });
  });
  const answers = await Promise.all(calls);
  expect(answers.map((answer) => answer.user.email)).toEqual(
    Array.from({ length: 300 }, (_, i) => `${['ada', 'bob', 'cy'][i % 3]}@example.com`),
  );
  core.close();
  await platform.stop();
});

/** A peer that answers each call with its input, keeps how many calls each frame carried, and may say how many it takes. */
async function recordingPeer(callsPerFrame?: number) {
  const frames: number[] = [];
  const peer = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  if (callsPerFrame) peer.on('headers', (headers) => headers.push(`x-svc-calls-per-frame: ${callsPerFrame}`));
  peer.on('connection', (socket) =>
    socket.on('message', (data: Buffer) => {
      const calls = JSON.parse(data.toString()) as { id: number; input: unknown }[];
      frames.push(calls.length);
      socket.send(JSON.stringify(calls.map(({ id, input }) => ({ id, result: { type: 'data', data: input } }))));
    }),
  );
  await new Promise((resolve) => peer.once('listening', resolve));
  const channel = new CoreChannel(`ws://127.0.0.1:${(peer.address() as AddressInfo).port}/trpc`, { internalToken: 'any-token' });
  await channel.call({ type: 'query', path: 'health.ping' }); // the channel is open
  frames.length = 0;
  return {
    frames,
    /** Makes `count` calls at once; resolves with the inputs answered, in the order of the calls. */
    async callAtOnce(count: number) {
      const answers = await Promise.all(Array.from({ length: count }, (_, n) => channel.call({ type: 'query', path: 'echo', input: n })));
      return answers.map((answer) => ('result' in answer ? answer.result.data : answer));
    },
    async close() {
      channel.close();
      await new Promise((resolve) => peer.close(resolve));
    },
  };
}

it('sends calls made at once in frames of as many calls as core said it takes, so it starts on the first', async () => {
  const eight = await recordingPeer(8);
  expect(await eight.callAtOnce(20)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  expect(eight.frames).toEqual([8, 8, 4]);
  await eight.close();

  // A core that said nothing takes them all in one frame.
  const any = await recordingPeer();
  expect(await any.callAtOnce(20)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  expect(any.frames).toEqual([20]);
  await any.close();
});

it('fails the calls waiting on a channel that closes, at once, instead of leaving them hanging', async () => {
  // A peer that takes the calls and goes away without answering, as a core that crashes does.
  const peer = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  peer.on('connection', (socket) => socket.on('message', () => socket.terminate()));
  await new Promise((resolve) => peer.once('listening', resolve));
  const channel = new CoreChannel(`ws://127.0.0.1:${(peer.address() as AddressInfo).port}/trpc`, { internalToken: 'any-token' });
  const outcomes = await Promise.allSettled([
    channel.call({ type: 'mutation', path: 'verifications.create', input: {} }),
    channel.call({ type: 'query', path: 'health.ping' }),
  ]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  channel.close();
  await new Promise((resolve) => peer.close(resolve));
});

it('fails a call that core does not answer in time', async () => {
  const peer = new WebSocketServer({ port: 0, host: '127.0.0.1' }); // takes calls and never answers
  await new Promise((resolve) => peer.once('listening', resolve));
  const channel = new CoreChannel(`ws://127.0.0.1:${(peer.address() as AddressInfo).port}/trpc`, {
    internalToken: 'any-token',
    answerTimeoutMs: 100,
  });
  await expect(channel.call({ type: 'query', path: 'health.ping' })).rejects.toThrow('core did not answer within 0.1 s');
  channel.close();
  await new Promise((resolve) => peer.close(resolve));
});

it('answers 503 core_unavailable on the API when core cannot be reached', async () => {
  const closed = await freePort(); // nothing listens there
  const gateway = await startGateway({
    port: 0,
    coreUrls: [`http://127.0.0.1:${closed}`],
    secretKey: randomBytes(32),
    log: createLogger('gateway', { LOG_LEVEL: 'silent' }),
  });
  const answer = await request(`${gateway.url}/cli/workspaces`, { token: 'svc_whatever' });
  expect(answer.status).toBe(503);
  expect(answer.body.error.code).toBe('core_unavailable');
  await gateway.stop();
});

it("serves nothing when its key is not core's: 503, and the log says which setting differs", async () => {
  const platform = await startPlatform();
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const gateway = await startGateway({ port: 0, coreUrls: [platform.core.url], secretKey: randomBytes(32), log });
  const health = await request(`${gateway.url}/healthz`);
  expect(health.status).toBe(503);
  expect(health.body.error.code).toBe('core_unavailable');
  expect(lines.join('')).toContain("core refused the channel: the gateway's SVC_SECRET_KEY is not core's");
  // The platform's own gateway, with core's key, is served.
  expect((await request(`${platform.url}/healthz`)).status).toBe(200);
  await gateway.stop();
  await platform.stop();
});
