import { anthropicMessage, type FakeProvider, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { evalsWorkspace, salesAgent } from '../evals/setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.stop());

const sentence = 'Express delivery takes 1 to 2 business days and costs 12 dollars.';
const note = `"${sentence}" Do not lead with free shipping.`;
/** The reply flagged: it leads with free shipping, and says the sentence, in lower case. */
const leading = `Standard shipping is free. ${sentence.toLowerCase()}`;

describe('a flag is fixed only by a version published after its reply', () => {
  it('a live run of the version that gave the reply leaves its flag open, a pass by a person too; the next version fixes it', async () => {
    const ws = await evalsWorkspace(platform, 'express');
    await ws.deploy('preview', salesAgent(leading, { slug: 'express' }));
    expect((await ws.api('/publish', { json: {} })).body.eval_run_id).toBeNull();
    const supervisor = await ws.member('supervisor');
    const { replyId } = await ws.say('what is the price of express delivery?');
    const flag = await ws.api('/flags', { token: supervisor, json: { message_id: replyId, note } });
    expect(flag.status).toBe(201);

    const same = await ws.run({ environment: 'live' });
    expect(same.body).toMatchObject({ passed: 1, version: { number: 1 } });
    const caseId = flag.body.eval_case_id;
    const override = await ws.evals(`/runs/${same.body.id}/results/${caseId}/override`, { method: 'PUT', json: { verdict: 'pass' } });
    expect(override.status).toBe(200);
    const kept = await ws.api(`/flags/${flag.body.id}`);
    expect(kept.body).toMatchObject({ status: 'open', fixed_by_version: null, version: { number: 1 } });
    expect(kept.body.history).toHaveLength(1);
    expect((await ws.api('/flags.md')).body).toContain(flag.body.id);

    await ws.deploy('preview', salesAgent(`${sentence} Standard shipping is free.`, { slug: 'express' }));
    const published = await ws.api('/publish', { json: {} });
    const run = await ws.finished(published.body.eval_run_id);
    expect(run.body).toMatchObject({ passed: 1, version: { number: 2 } });
    const fixed = await ws.api(`/flags/${flag.body.id}`);
    expect(fixed.body).toMatchObject({ status: 'fixed', fixed_by_version: { number: 2 } });
    expect(fixed.body.history.map((e: { to_status: string }) => e.to_status)).toEqual(['open', 'fixed']);
  });
});

describe('flagging a reply that already meets its note', () => {
  it('the flag is made, with a warning that the reply already says what the note quotes', async () => {
    const ws = await evalsWorkspace(platform, 'warned');
    await ws.deploy('preview', salesAgent(leading, { slug: 'warned' }));
    await ws.api('/publish', { json: {} });
    const supervisor = await ws.member('supervisor');
    const flagOf = async (json: Record<string, unknown>) =>
      ws.api('/flags', { token: supervisor, json: { message_id: (await ws.say('what is the price?')).replyId, ...json } });

    const warned = await flagOf({ note });
    expect(warned).toMatchObject({ status: 201, body: { status: 'open', note, warning: { code: 'reply_already_passes' } } });
    expect(warned.body.warning.message).toContain(`"${sentence}"`);
    // A note the reply does not meet, a note with no quote and no note warn of nothing.
    for (const json of [{ note: '"Express delivery costs 15 dollars."' }, { note: 'Do not lead with free shipping.' }, {}]) {
      const created = await flagOf(json);
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('warning');
    }
  });
});

describe('with a judge configured, flagging or editing a note the judge passes the reply against', () => {
  const judge = 'anthropic:claude-sonnet-4-6';
  let judged: TestPlatform;
  let anthropic: FakeProvider;
  beforeAll(async () => {
    // The judge reads the reply and the note; it passes the reply when the note says so, whatever the note quotes.
    anthropic = await startFakeProvider((req) => {
      const read = JSON.parse(req.body).messages[0].content as string;
      return anthropicMessage(
        read.includes('(the judge passes)')
          ? '{"verdict":"pass","reasoning":"The reply already gives the express price."}'
          : '{"verdict":"fail","reasoning":"The reply leads with free shipping."}',
      );
    });
    judged = await startPlatform({ models: { anthropic: { baseURL: anthropic.url, apiKey: 'sk-judge' } }, evals: { judges: [judge] } });
  });
  afterAll(async () => {
    await judged?.stop();
    await anthropic?.close();
  });

  it('warns with the judge and its reason, not by the quoted phrases, and warns again when an edit makes such a note', async () => {
    const ws = await evalsWorkspace(judged, 'judged');
    await ws.deploy('preview', salesAgent(leading, { slug: 'judged' }));
    await ws.api('/publish', { json: {} });
    const supervisor = await ws.member('supervisor');
    const flagOf = async (json: Record<string, unknown>) =>
      ws.api('/flags', { token: supervisor, json: { message_id: (await ws.say('what is the price?')).replyId, ...json } });

    const warned = await flagOf({ note: 'Gives the express price (the judge passes).' });
    expect(warned).toMatchObject({ status: 201, body: { warning: { code: 'reply_already_passes' } } });
    expect(warned.body.warning.message).toContain(
      `the judge ${judge} passes this reply as it is (The reply already gives the express price)`,
    );
    // The reply says every phrase this note quotes, but the judge a live run would use fails it: no warning.
    const quoted = await flagOf({ note });
    expect(quoted.status).toBe(201);
    expect(quoted.body).not.toHaveProperty('warning');

    const edited = await ws.api(`/flags/${quoted.body.id}`, {
      method: 'PATCH',
      token: supervisor,
      json: { note: `${note} (the judge passes)` },
    });
    expect(edited).toMatchObject({ status: 200, body: { note: `${note} (the judge passes)`, warning: { code: 'reply_already_passes' } } });
    const plain = await ws.api(`/flags/${quoted.body.id}`, {
      method: 'PATCH',
      token: supervisor,
      json: { note: 'Lead with the express price.' },
    });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('warning');
  });
});
