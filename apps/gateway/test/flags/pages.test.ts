import { flagsDigestCap } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { type FlagsApi, flagsWorkspace } from './setup.ts';

let platform: TestPlatform;
let ws: FlagsApi;
/** The flags with a note, oldest first, then the one without. */
const noted: string[] = [];
let bare: string;

beforeAll(async () => {
  platform = await startPlatform();
  ws = await flagsWorkspace(platform, 'piles');
  const { replies } = await ws.conversation(Array.from({ length: flagsDigestCap + 3 }, (_, i) => `where is order A-${i}?`));
  for (const [i, reply] of replies.slice(0, -1).entries()) {
    const created = await ws.flags('', { json: { message_id: reply, note: `Say where order A-${i} is.` } });
    expect(created.status).toBe(201);
    noted.push(created.body.id);
  }
  bare = (await ws.flags('', { json: { message_id: replies.at(-1) } })).body.id;
});
afterAll(() => platform.stop());

it('lists the flags a page at a time, oldest first, none twice and none missed while a flag is added between pages', async () => {
  const seen: string[] = [];
  let added: string | undefined;
  let cursor: string | null = null;
  const sizes: number[] = [];
  do {
    const page = await ws.flags(`?limit=20${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    sizes.push(page.body.flags.length);
    seen.push(...page.body.flags.map((f: { id: string }) => f.id));
    cursor = page.body.next_cursor;
    if (cursor && !added) {
      const { replies } = await ws.conversation(['and order B-1?']);
      added = (await ws.flags('', { json: { message_id: replies[0] } })).body.id;
    }
  } while (cursor);
  expect(sizes).toEqual([20, 20, 14]);
  expect(seen).toEqual([...noted, bare, added]);
  expect((await ws.flags('?agent=support&limit=1')).body.flags.map((f: { id: string }) => f.id)).toEqual([noted[0]]);
  expect((await ws.flags('?agent=sales')).body).toEqual({ flags: [], next_cursor: null });
});

it(`the digest shows the newest ${flagsDigestCap} open flags with a note and says how many more there are and how to get them`, async () => {
  const digest = await ws.flags('.md');
  expect(digest.status).toBe(200);
  const shown = [...String(digest.body).matchAll(/<a id="(flag_\w+)"><\/a>/g)].map((m) => m[1]);
  expect(shown).toEqual(noted.slice(-flagsDigestCap).reverse());
  expect(digest.body).toContain(`## ${flagsDigestCap + 2} open flags, the newest ${flagsDigestCap} below`);
  expect(digest.body).toContain(
    '_2 more open flags with a note are not shown here: `svc flags --all` prints every one, `svc flags --agent <slug>` the newest of one agent._',
  );
  expect(digest.body).not.toContain(bare);
  expect((await ws.flags('.md?agent=support')).body).toContain('`svc flags --all --agent support` prints every one._');
  expect((await ws.flags('.md?agent=sales')).body).toBe(
    '# Flags digest of `piles`, agent `sales`\n\nNo open flags with a note: nothing to fix.\n',
  );
});

it.each([
  ['.md?agent=Sales!', 'agent'],
  ['?agent=-x', 'agent'],
  ['?status=closed', 'status'],
])('answers flags%s with 400 invalid_request naming %s', async (query, field) => {
  const res = await ws.flags(query);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
});
