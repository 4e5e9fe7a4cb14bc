import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { flagsWorkspace } from './setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.stop());

const note = 'Say the order ships tomorrow and give the tracking link.';

describe('the flag lifecycle through the API, row by row', () => {
  it('a flag with a note is open, in the list and the digest, and has an eval case', async () => {
    const ws = await flagsWorkspace(platform, 'noted');
    const { replies } = await ws.conversation(['hello', 'where is order A-1?']);
    const created = await ws.flags('', { json: { message_id: replies[1], note } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', note, agent: 'support', environment: 'live', created_by: 'owner@noted.example' });
    expect(created.body.eval_case_id).toMatch(/^case_/);
    const evalCase = await platform.core.services.store.evalCases.get(ws.workspaceId, created.body.eval_case_id);
    expect(evalCase).toMatchObject({
      turns: ['hello', 'where is order A-1?'],
      expected: note,
      agent: 'support',
      originFlagId: created.body.id,
    });
    expect((await ws.flags()).body.flags.map((f: { id: string }) => f.id)).toEqual([created.body.id]);
    const digest = await ws.flags('.md');
    expect(digest.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(digest.body).toContain(note);
    expect(digest.body).toContain(created.body.id);
  });

  it('a flag without a note is open but in no digest and has no case; a note added later makes one; clearing it removes it', async () => {
    const ws = await flagsWorkspace(platform, 'bare');
    const { replies } = await ws.conversation(['where is order A-1?']);
    const created = await ws.flags('', { json: { message_id: replies[0] } });
    expect(created.body).toMatchObject({ status: 'open', note: null, eval_case_id: null });
    expect((await ws.flags('.md')).body).not.toContain(created.body.id);

    const noted = await ws.flags(`/${created.body.id}`, { method: 'PATCH', json: { note } });
    expect(noted).toMatchObject({ status: 200, body: { status: 'open', note } });
    expect(noted.body.eval_case_id).toMatch(/^case_/);
    expect((await ws.flags('.md')).body).toContain(note);

    for (const cleared of [null, '']) {
      await ws.flags(`/${created.body.id}`, { method: 'PATCH', json: { note } });
      const emptied = await ws.flags(`/${created.body.id}`, { method: 'PATCH', json: { note: cleared } });
      expect(emptied.body).toMatchObject({ status: 'open', note: null, eval_case_id: null });
      expect(await platform.core.services.store.evalCases.list(ws.workspaceId)).toEqual([]);
      expect((await ws.flags('.md')).body).not.toContain(created.body.id);
    }
  });

  it('editing the note of a fixed flag reopens it and clears the version that fixed it', async () => {
    const ws = await flagsWorkspace(platform, 'fixed');
    const { replies } = await ws.conversation(['where is order A-1?']);
    // Version 2 goes live before the flag is made: its publish has no case to run.
    const next = await ws.publishNext();
    const created = await ws.flags('', { json: { message_id: replies[0], note } });
    await platform.core.services.flags.markFixed(created.body.id, next.id, new Date().toISOString());
    expect((await ws.flags()).body.flags).toEqual([]);
    expect((await ws.flags('?status=fixed')).body.flags).toMatchObject([
      { id: created.body.id, status: 'fixed', version: { number: 1 }, fixed_by_version: { id: next.id, number: 2 } },
    ]);
    expect((await ws.flags('.md')).body).not.toContain(created.body.id);

    const reopened = await ws.flags(`/${created.body.id}`, { method: 'PATCH', json: { note: 'Give the tracking link.' } });
    expect(reopened.body).toMatchObject({
      status: 'open',
      fixed_by_version: null,
      fixed_at: null,
      eval_case_id: created.body.eval_case_id,
    });
    const history = (await ws.flags(`/${created.body.id}`)).body.history;
    expect(history.map((e: { to_status: string }) => e.to_status)).toEqual(['open', 'fixed', 'open']);
    expect(history[2]).toMatchObject({
      actor: 'owner@fixed.example',
      from_status: 'fixed',
      note_before: note,
      note_after: 'Give the tracking link.',
    });
  });

  it('removing a flag in any state removes it and its case; a removed flag cannot be edited; the reply can be flagged again', async () => {
    const ws = await flagsWorkspace(platform, 'removal');
    const { replies } = await ws.conversation(['a', 'b', 'where is order A-1?']);
    const next = await ws.publishNext();
    const ids: string[] = [];
    for (const [i, body] of [{ note }, {}, { note }].entries())
      ids.push((await ws.flags('', { json: { message_id: replies[i], ...body } })).body.id);
    await platform.core.services.flags.markFixed(ids[2]!, next.id, new Date().toISOString());
    expect((await ws.flags(`/${ids[2]}`)).body.status).toBe('fixed');
    for (const id of ids) {
      expect((await ws.flags(`/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await ws.flags(`/${id}`)).body).toMatchObject({ status: 'removed', eval_case_id: null });
      const edit = await ws.flags(`/${id}`, { method: 'PATCH', json: { note: 'again' } });
      expect(edit).toMatchObject({ status: 409, body: { error: { code: 'flag_removed' } } });
    }
    expect(await platform.core.services.store.evalCases.list(ws.workspaceId)).toEqual([]);
    expect((await ws.flags('?status=removed')).body.flags).toHaveLength(3);
    expect((await ws.flags(`/${ids[0]}`, { method: 'DELETE' })).status).toBe(204);
    const again = await ws.flags('', { json: { message_id: replies[0], note } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(ids[0]);
    expect((await ws.flags('?status=all')).body.flags).toHaveLength(4);
  });

  it('one live flag per reply: flagging it again answers 409 already_flagged with the flag’s id', async () => {
    const ws = await flagsWorkspace(platform, 'twice');
    const { replies } = await ws.conversation(['where is order A-1?']);
    const first = await ws.flags('', { json: { message_id: replies[0] } });
    const second = await ws.flags('', { json: { message_id: replies[0], note } });
    expect(second).toMatchObject({ status: 409, body: { flag_id: first.body.id, error: { code: 'already_flagged' } } });
  });

  it('owners, developers and supervisors flag, edit and remove; every member reads', async () => {
    const ws = await flagsWorkspace(platform, 'roles');
    const { replies } = await ws.conversation(['a', 'b', 'c']);
    for (const [i, role] of (['owner', 'developer', 'supervisor'] as const).entries()) {
      const token = role === 'owner' ? ws.token : await ws.member(role);
      const created = await ws.flags('', { token, json: { message_id: replies[i], note } });
      expect(created.status, role).toBe(201);
      expect((await ws.flags(`/${created.body.id}`, { token, method: 'PATCH', json: { note: 'x' } })).status).toBe(200);
      expect((await ws.flags(`/${created.body.id}`, { token })).status).toBe(200);
      expect((await ws.flags('', { token })).status).toBe(200);
      expect((await ws.flags('.md', { token })).status).toBe(200);
      expect((await ws.flags(`/${created.body.id}`, { token, method: 'DELETE' })).status).toBe(204);
    }
  });
});
