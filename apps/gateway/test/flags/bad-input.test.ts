import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { type FlagsApi, flagsWorkspace } from './setup.ts';

let platform: TestPlatform;
let acme: FlagsApi;
let globex: FlagsApi;
beforeAll(async () => {
  platform = await startPlatform();
  acme = await flagsWorkspace(platform, 'acme');
  globex = await flagsWorkspace(platform, 'globex');
});
afterAll(() => platform.stop());

const code = (answer: { status: number; body: { error: { code: string; field?: string } } }) => [answer.status, answer.body.error.code];

it('a note over 10,000 characters is refused, naming the note, on create and edit', async () => {
  const { replies } = await acme.conversation(['a', 'b']);
  const long = 'x'.repeat(10_001);
  const created = await acme.flags('', { json: { message_id: replies[0], note: long } });
  expect(created).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', field: 'note' } } });
  expect((await acme.flags('', { json: { message_id: replies[0], note: 'x'.repeat(10_000) } })).status).toBe(201);
  const { id } = (await acme.flags('', { json: { message_id: replies[1] } })).body;
  expect(await acme.flags(`/${id}`, { method: 'PATCH', json: { note: long } })).toMatchObject({
    status: 400,
    body: { error: { code: 'invalid_request', field: 'note' } },
  });
  expect((await acme.flags(`/${id}`)).body.note).toBeNull();
});

it('unknown messages and flags are 404 with their own codes; a visitor message or a replay reply is not an agent reply', async () => {
  const { visitors } = await acme.conversation(['a']);
  const replay = await acme.conversation(['where is order A-1?'], { replay: true });
  expect(code(await acme.flags('', { json: { message_id: 'msg_unknown' } }))).toEqual([404, 'message_not_found']);
  expect(code(await acme.flags('', { json: { message_id: visitors[0] } }))).toEqual([400, 'not_an_agent_reply']);
  expect(code(await acme.flags('', { json: { message_id: replay.replies[0] } }))).toEqual([400, 'not_an_agent_reply']);
  expect(code(await acme.flags('/flag_unknown'))).toEqual([404, 'flag_not_found']);
  expect(code(await acme.flags('/flag_unknown', { method: 'PATCH', json: { note: 'x' } }))).toEqual([404, 'flag_not_found']);
  expect(code(await acme.flags('/flag_unknown', { method: 'DELETE' }))).toEqual([404, 'flag_not_found']);
});

it("another workspace's messages and flags are not found, even for someone who belongs to both", async () => {
  const { replies } = await globex.conversation(['a', 'b']);
  const { id } = (await globex.flags('', { json: { message_id: replies[0] } })).body;
  expect(code(await acme.flags('', { json: { message_id: replies[1] } }))).toEqual([404, 'message_not_found']);
  expect(code(await acme.flags(`/${id}`))).toEqual([404, 'flag_not_found']);
  // The owner of globex is a member of acme too: still not found through acme.
  const both = await acme.member('developer', 'owner@globex.example');
  expect(code(await acme.flags('', { token: both, json: { message_id: replies[1] } }))).toEqual([404, 'message_not_found']);
  expect(code(await acme.flags(`/${id}`, { token: both, method: 'DELETE' }))).toEqual([404, 'flag_not_found']);
  expect((await globex.flags(`/${id}`)).body.status).toBe('open');
});

it('a token of a non-member gets 404 workspace_not_found on every flags operation', async () => {
  const stranger = await createUserWithToken(platform, 'stranger@example.com');
  const { replies } = await acme.conversation(['a']);
  const { id } = (await acme.flags('', { json: { message_id: replies[0] } })).body;
  for (const [path, init] of [
    ['', {}],
    ['.md', {}],
    ['', { json: { message_id: replies[0] } }],
    [`/${id}`, {}],
    [`/${id}`, { method: 'PATCH', json: { note: 'x' } }],
    [`/${id}`, { method: 'DELETE' }],
  ] as const) {
    expect(code(await acme.flags(path, { token: stranger, ...init })), `${path} ${JSON.stringify(init)}`).toEqual([
      404,
      'workspace_not_found',
    ]);
  }
  expect((await acme.flags(`/${id}`)).body.status).toBe('open');
});

it('an unknown status filter is refused, naming it', async () => {
  expect(await acme.flags('?status=closed')).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', field: 'status' } } });
});
