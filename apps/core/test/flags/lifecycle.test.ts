import { describe, expect, it } from 'vitest';
import { flagWorld } from './setup.ts';

const note = 'Say that refunds take 5 business days and link the refund form.';

describe('the flag lifecycle, row by row', () => {
  it('a flag with a note is open and has an eval case: the visitor turns up to the reply, the note, the agent, the flag', async () => {
    const { services, workspace, owner, conversation } = await flagWorld();
    const { replies } = await conversation(['hi', 'refund please', 'and later?']);
    const flag = await services.flags.create(workspace, owner.email, { message_id: replies[1]!, note });
    expect(flag).toMatchObject({ status: 'open', note, created_by: 'ada@example.com', fixed_by_version: null, fixed_at: null });
    const evalCase = await services.store.evalCases.get(workspace.id, flag.eval_case_id!);
    expect(evalCase).toMatchObject({
      agent: 'support',
      turns: ['hi', 'refund please'],
      expected: note,
      originFlagId: flag.id,
      deletedAt: null,
    });
    expect((await services.flags.list(workspace.id, { status: 'open', limit: 100 })).flags.map((f) => f.id)).toEqual([flag.id]);
    expect((await services.flags.get(workspace, flag.id)).history).toMatchObject([
      { actor: 'ada@example.com', from_status: null, to_status: 'open', note_before: null, note_after: note },
    ]);
  });

  it('a flag without a note is open with no case; a note added later makes the case, and clearing it removes the case', async () => {
    const { services, workspace, owner, conversation } = await flagWorld();
    const { replies } = await conversation(['refund please']);
    const flag = await services.flags.create(workspace, owner.email, { message_id: replies[0]! });
    expect(flag).toMatchObject({ status: 'open', note: null, eval_case_id: null });
    expect(await services.store.evalCases.list(workspace.id)).toEqual([]);

    const noted = await services.flags.editNote(workspace, owner.email, flag.id, note);
    expect(noted).toMatchObject({ status: 'open', note });
    expect(await services.store.evalCases.list(workspace.id)).toMatchObject([
      { id: noted.eval_case_id, expected: note, turns: ['refund please'] },
    ]);

    for (const cleared of ['', null]) {
      const again = await services.flags.editNote(workspace, owner.email, flag.id, 'Something else.');
      const caseId = again.eval_case_id!;
      const emptied = await services.flags.editNote(workspace, owner.email, flag.id, cleared);
      expect(emptied).toMatchObject({ status: 'open', note: null, eval_case_id: null });
      expect(await services.store.evalCases.list(workspace.id)).toEqual([]);
      expect((await services.store.evalCases.get(workspace.id, caseId))?.deletedAt).not.toBeNull();
    }
  });

  it('editing the note of a fixed flag reopens it, clears the fixing version and updates its case', async () => {
    const { services, workspace, owner, conversation, publishNext } = await flagWorld();
    const { replies } = await conversation(['refund please']);
    const flag = await services.flags.create(workspace, owner.email, { message_id: replies[0]!, note });
    const live = await publishNext();
    const fixed = await services.flags.markFixed(flag.id, live.id, '2026-03-02T08:00:00.000Z');
    expect(fixed).toMatchObject({ status: 'fixed', fixed_by_version: { id: live.id, number: 2 }, fixed_at: '2026-03-02T08:00:00.000Z' });
    expect((await services.flags.list(workspace.id, { status: 'open', limit: 100 })).flags).toEqual([]);
    expect((await services.flags.list(workspace.id, { status: 'fixed', limit: 100 })).flags.map((f) => f.id)).toEqual([flag.id]);

    const reopened = await services.flags.editNote(workspace, owner.email, flag.id, 'Link the refund form too.');
    expect(reopened).toMatchObject({ status: 'open', fixed_by_version: null, fixed_at: null, eval_case_id: flag.eval_case_id });
    expect(await services.store.evalCases.get(workspace.id, flag.eval_case_id!)).toMatchObject({ expected: 'Link the refund form too.' });
    expect((await services.flags.get(workspace, flag.id)).history.map((e) => [e.actor, e.from_status, e.to_status])).toEqual([
      ['ada@example.com', null, 'open'],
      ['svc', 'open', 'fixed'],
      ['ada@example.com', 'fixed', 'open'],
    ]);
  });

  it('removing a flag in any state marks it removed and removes its case; a removed flag cannot be edited', async () => {
    const { services, workspace, owner, conversation, publishNext } = await flagWorld();
    const { replies } = await conversation(['a', 'b', 'c']);
    const open = await services.flags.create(workspace, owner.email, { message_id: replies[0]!, note });
    const bare = await services.flags.create(workspace, owner.email, { message_id: replies[1]! });
    const fixed = await services.flags.create(workspace, owner.email, { message_id: replies[2]!, note });
    const live = await publishNext();
    await services.flags.markFixed(fixed.id, live.id, '2026-03-02T08:00:00.000Z');

    for (const flag of [open, bare, fixed]) {
      await services.flags.remove(workspace, owner.email, flag.id);
      const removed = await services.flags.get(workspace, flag.id);
      expect(removed).toMatchObject({ status: 'removed', eval_case_id: null });
      expect(removed.history.at(-1)).toMatchObject({ actor: 'ada@example.com', to_status: 'removed' });
      await expect(services.flags.editNote(workspace, owner.email, flag.id, 'x')).rejects.toMatchObject({ code: 'flag_removed' });
    }
    expect(await services.store.evalCases.list(workspace.id)).toEqual([]);
    expect((await services.flags.list(workspace.id, { status: 'removed', limit: 100 })).flags).toHaveLength(3);
    // Removing again changes nothing and records nothing.
    await services.flags.remove(workspace, owner.email, open.id);
    expect((await services.flags.get(workspace, open.id)).history).toHaveLength(2);
  });

  it('flagging a removed reply again makes a new flag; a reply has one live flag, named when flagged again', async () => {
    const { services, workspace, owner, conversation } = await flagWorld();
    const { replies } = await conversation(['refund please']);
    const first = await services.flags.create(workspace, owner.email, { message_id: replies[0]!, note });
    await expect(services.flags.create(workspace, owner.email, { message_id: replies[0]! })).rejects.toMatchObject({
      code: 'already_flagged',
      details: { flag_id: first.id },
    });
    await services.flags.remove(workspace, owner.email, first.id);
    const second = await services.flags.create(workspace, owner.email, { message_id: replies[0]!, note: 'Another note.' });
    expect(second.id).not.toBe(first.id);
    expect(second.eval_case_id).not.toBe(first.eval_case_id);
    expect((await services.flags.list(workspace.id, { status: 'all', limit: 100 })).flags.map((f) => [f.id, f.status])).toEqual([
      [first.id, 'removed'],
      [second.id, 'open'],
    ]);
  });

  it('only agent replies of conversations can be flagged', async () => {
    const { services, workspace, owner, conversation } = await flagWorld();
    const { visitors } = await conversation(['refund please']);
    const replay = await conversation(['refund please'], { replay: true });
    const other = await services.workspaces.create(owner.id, { slug: 'globex' });
    const flag = (messageId: string, where = workspace) => services.flags.create(where, owner.email, { message_id: messageId });
    await expect(flag(visitors[0]!)).rejects.toMatchObject({ code: 'not_an_agent_reply' });
    await expect(flag(replay.replies[0]!)).rejects.toMatchObject({ code: 'not_an_agent_reply' });
    await expect(flag('msg_unknown')).rejects.toMatchObject({ code: 'message_not_found' });
    await expect(flag(replay.replies[0]!, other)).rejects.toMatchObject({ code: 'message_not_found' });
    expect((await services.flags.list(workspace.id, { status: 'all', limit: 100 })).flags).toEqual([]);
  });

  it('marks fixed only an open flag with a note; fixing again changes nothing', async () => {
    const { services, workspace, owner, conversation, publishNext } = await flagWorld();
    const { replies } = await conversation(['a', 'b']);
    const bare = await services.flags.create(workspace, owner.email, { message_id: replies[0]! });
    const live = await publishNext();
    await expect(services.flags.markFixed(bare.id, live.id, '2026-03-02T08:00:00.000Z')).rejects.toMatchObject({ code: 'conflict' });
    const noted = await services.flags.create(workspace, owner.email, { message_id: replies[1]!, note });
    await services.flags.markFixed(noted.id, live.id, '2026-03-02T08:00:00.000Z');
    const again = await services.flags.markFixed(noted.id, live.id, '2026-03-03T08:00:00.000Z');
    expect(again.fixed_at).toBe('2026-03-02T08:00:00.000Z');
    expect((await services.flags.get(workspace, noted.id)).history).toHaveLength(2);
    await services.flags.remove(workspace, owner.email, noted.id);
    await expect(services.flags.markFixed(noted.id, live.id, '2026-03-04T08:00:00.000Z')).rejects.toMatchObject({ code: 'flag_removed' });
    await expect(services.flags.markFixed('flag_unknown', live.id, '2026-03-04T08:00:00.000Z')).rejects.toMatchObject({
      code: 'flag_not_found',
    });
  });

  it('only a version other than the flagged reply’s fixes its flag: a pass of the version that gave the reply leaves it open', async () => {
    const { services, workspace, owner, conversation, live, publishNext } = await flagWorld();
    const { replies } = await conversation(['refund please']);
    const flag = await services.flags.create(workspace, owner.email, { message_id: replies[0]!, note });
    const flagged = await live();
    const kept = await services.flags.markFixed(flag.id, flagged.id, '2026-03-02T08:00:00.000Z');
    expect(kept).toMatchObject({ status: 'open', fixed_by_version: null });
    expect((await services.flags.fixesBy(workspace.id, [flag.eval_case_id!], flagged, '2026-03-02T08:00:00.000Z')).length).toBe(0);
    expect((await services.flags.get(workspace, flag.id)).history).toHaveLength(1);

    const next = await publishNext();
    const fixed = await services.flags.markFixed(flag.id, next.id, '2026-03-03T08:00:00.000Z');
    expect(fixed).toMatchObject({ status: 'fixed', fixed_by_version: { id: next.id, number: 2 } });
  });

  it('an unknown flag is flag_not_found, in this workspace or another', async () => {
    const { services, workspace, owner, conversation } = await flagWorld();
    const { replies } = await conversation(['a']);
    const flag = await services.flags.create(workspace, owner.email, { message_id: replies[0]! });
    const other = await services.workspaces.create(owner.id, { slug: 'globex' });
    await expect(services.flags.get(workspace, 'flag_unknown')).rejects.toMatchObject({ code: 'flag_not_found' });
    await expect(services.flags.get(other, flag.id)).rejects.toMatchObject({ code: 'flag_not_found' });
    await expect(services.flags.editNote(other, owner.email, flag.id, note)).rejects.toMatchObject({ code: 'flag_not_found' });
    await expect(services.flags.remove(other, owner.email, flag.id)).rejects.toMatchObject({ code: 'flag_not_found' });
  });
});
