import { request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { atOnce } from '../at-once.ts';
import { flagsWorkspace } from './setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.stop());

it('six requests flagging one reply at once create one flag; the others answer 409 already_flagged with its id', async () => {
  const ws = await flagsWorkspace(platform, 'race');
  const { replies } = await ws.conversation(['where is order A-1?']);
  const answers = await atOnce(platform.url, 6, (i) =>
    request(`${platform.url}/api/developer/v1/race/flags`, { token: ws.token, json: { message_id: replies[0], note: `note ${i}` } }),
  );
  const created = answers.filter((a) => a.status === 201);
  expect(created).toHaveLength(1);
  const refused = answers.filter((a) => a.status !== 201);
  expect(refused.map((a) => [a.status, a.body.error.code, a.body.flag_id])).toEqual(
    Array.from({ length: 5 }, () => [409, 'already_flagged', created[0]!.body.id]),
  );
  expect((await ws.flags('?status=all')).body.flags).toHaveLength(1);
  expect(await platform.core.services.store.evalCases.list(ws.workspaceId)).toHaveLength(1);
});

it('an edit and a removal at once: the flag ends removed with no case, and each change that happened is in its history', async () => {
  const ws = await flagsWorkspace(platform, 'edit-remove');
  const { replies } = await ws.conversation(['where is order A-1?']);
  const { id } = (await ws.flags('', { json: { message_id: replies[0], note: 'first' } })).body;
  const answers = await atOnce(platform.url, 2, (i) =>
    i === 0
      ? request(`${platform.url}/api/developer/v1/edit-remove/flags/${id}`, { token: ws.token, method: 'PATCH', json: { note: 'second' } })
      : request(`${platform.url}/api/developer/v1/edit-remove/flags/${id}`, { token: ws.token, method: 'DELETE' }),
  );
  expect(answers[1]!.status).toBe(204);
  // The edit either came first (200) or found the flag removed (409).
  expect([200, 409]).toContain(answers[0]!.status);
  const flag = (await ws.flags(`/${id}`)).body;
  expect(flag).toMatchObject({ status: 'removed', eval_case_id: null });
  expect(flag.history.map((e: { to_status: string }) => e.to_status)).toEqual(
    answers[0]!.status === 200 ? ['open', 'open', 'removed'] : ['open', 'removed'],
  );
  expect(await platform.core.services.store.evalCases.list(ws.workspaceId)).toEqual([]);
});
