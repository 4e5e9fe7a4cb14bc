import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { FlagView } from '@svc/domain';
import { marked, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { renderFlagsDigest } from '../src/index.ts';
import { flag, toolCall } from './flag-fixtures.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}.md`, import.meta.url);

/**
 * Compares the digest byte for byte with its golden file. `UPDATE_GOLDEN=1` rewrites the file instead: review
 * the diff of the fixtures before committing it.
 */
function expectGolden(name: string, flags: FlagView[], workspace = 'acme'): string {
  const digest = renderFlagsDigest({ workspace, flags });
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(fixture(name), digest);
  else if (!existsSync(fixture(name))) throw new Error(`no golden file ${name}.md: run with UPDATE_GOLDEN=1 and review it`);
  expect(digest).toBe(readFileSync(fixture(name), 'utf8'));
  return digest;
}

const longResponse = {
  orders: Array.from({ length: 80 }, (_, i) => ({ id: `A-${1000 + i}`, status: i % 2 ? 'shipped' : 'packed' })),
};

describe('flags digest golden files', () => {
  it('no flags: a title and one line saying there is nothing to fix', () => {
    const digest = expectGolden('no-flags', []);
    expect(digest.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('one flag: instructions, the conversation, the reply, the turn and the note', () => {
    const digest = expectGolden('one-flag', [flag({ turn: { ...flag().turn, tool_calls: [toolCall()] } })]);
    expect(digest).toContain('`agents/<slug>/instructions.md`');
    expect(digest).toContain('svc eval --env <branch env>');
    expect(digest).toContain('<a id="flg_01"></a>');
  });

  it('several agents: newest first, ids breaking ties, whatever order the flags come in', () => {
    const flags = [
      flag({ id: 'flg_05', agent: 'support', created_at: '2026-06-02T09:00:00.000Z' }),
      flag({ id: 'flg_04', agent: 'sales', note: 'Quote the price list.', created_at: '2026-06-03T09:00:00.000Z' }),
      flag({ id: 'flg_03', agent: 'support', created_at: '2026-06-01T09:00:00.000Z' }),
      flag({ id: 'flg_02', agent: 'support', created_at: '2026-06-01T09:00:00.000Z' }),
    ];
    const digest = expectGolden('several-agents', flags);
    const order = [...digest.matchAll(/<a id="(flg_\d+)">/g)].map((m) => m[1]);
    expect(order).toEqual(['flg_04', 'flg_05', 'flg_03', 'flg_02']);
    expect(renderFlagsDigest({ workspace: 'acme', flags: [...flags].reverse() })).toBe(digest);
  });

  it('the newest flags of more: says how many are left out and how to get them, of one agent when asked', () => {
    const flags = [flag({ id: 'flg_02', created_at: '2026-06-02T09:00:00.000Z' }), flag({ id: 'flg_01' })];
    const digest = renderFlagsDigest({ workspace: 'acme', flags, total: 1_203 });
    expect(digest).toContain('## 1,203 open flags, the newest 2 below\n');
    expect(digest).toContain(
      '\n_1,201 more open flags with a note are not shown here: `svc flags --all` prints every one, `svc flags --agent <slug>` the newest of one agent._\n',
    );
    const ofAgent = renderFlagsDigest({ workspace: 'acme', flags, total: 3, agent: 'support' });
    expect(ofAgent.split('\n')[0]).toBe('# Flags digest of `acme`, agent `support`');
    expect(ofAgent).toContain('\n_1 more open flag with a note is not shown here: `svc flags --all --agent support` prints every one._\n');
    expect(renderFlagsDigest({ workspace: 'acme', flags, total: 2 })).not.toContain('more open flag');
  });

  it('a long tool response: trimmed, with how many characters were left out', () => {
    const digest = expectGolden('long-tool-response', [
      flag({
        conversation: [{ role: 'visitor', text: `Thanks ${'👍'.repeat(2_100)}`, created_at: flag().created_at }],
        turn: { tool_calls: [toolCall({ response: longResponse })], knowledge: [], tokens: { input: 9000, output: 40 } },
      }),
    ]);
    const full = JSON.stringify(longResponse, null, 2).length;
    expect(digest).toContain(`… (${full - 2000} more characters)`);
    expect(digest).not.toContain('A-1079');
    // Characters, not UTF-16 units: no emoji is cut in half.
    expect(digest).toContain(`${'👍'.repeat(1_993)}\n  … (107 more characters)`);
    expect(digest).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('content with backticks and markdown stays inside its blocks', () => {
    const reply = 'Use:\n````sh\nrm -rf /\n````\n<script>alert(1)</script>';
    const note = '**Never** suggest `rm -rf /`.\n\n## Say instead\n- ask what they want to delete';
    const response = '```\n</details>\n```';
    const digest = expectGolden('backticks-and-markdown', [
      flag({
        conversation: [{ role: 'visitor', text: 'How do I run ```rm -rf``` safely?\n# Not a heading', created_at: flag().created_at }],
        reply,
        note,
        turn: {
          tool_calls: [toolCall({ response, arguments: { q: '`x`' }, error: 'bad ``gateway``' })],
          knowledge: [{ query: '`rm`', hits: [{ path: 'knowledge/`shell`.md', text: '~~~\n```' }] }],
          tokens: { input: 1, output: 2 },
        },
      }),
    ]);
    // Read back by a CommonMark parser: each value is one code block holding exactly its text, and the
    // customer's headings and HTML never become the digest's own.
    const tokens = marked.lexer(digest);
    const blocks = tokens.filter((t): t is Tokens.Code => t.type === 'code').map((t) => t.text);
    expect(blocks).toEqual(expect.arrayContaining([reply, note, response, 'bad ``gateway``', '~~~\n```']));
    expect(tokens.filter((t) => t.type === 'html')).toEqual([]);
    const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => t.text);
    expect(headings).not.toContain('Not a heading');
    expect(headings).not.toContain('Say instead');
    const spans: string[] = [];
    void marked.walkTokens(tokens, (t) => void (t.type === 'codespan' && spans.push((t as Tokens.Codespan).text)));
    expect(spans).toEqual(expect.arrayContaining(['knowledge/`shell`.md', '`rm`']));
  });

  it('flags without a note or not open are left out', () => {
    const digest = expectGolden('excluded-flags', [
      flag({ id: 'flg_no_note', note: null, eval_case_id: null }),
      flag({ id: 'flg_empty_note', note: '' }),
      flag({ id: 'flg_fixed', status: 'fixed', fixed_by_version: { id: 'ver_04', number: 4 }, fixed_at: flag().created_at }),
      flag({ id: 'flg_removed', status: 'removed' }),
      flag({ id: 'flg_kept' }),
    ]);
    expect([...digest.matchAll(/<a id="(flg_\w+)">/g)].map((m) => m[1])).toEqual(['flg_kept']);
    expect(renderFlagsDigest({ workspace: 'acme', flags: [flag({ note: null }), flag({ status: 'removed' })] })).toBe(
      readFileSync(fixture('no-flags'), 'utf8'),
    );
  });

  it('a reply at the start of a chat: no conversation before it', () => {
    const digest = expectGolden('start-of-chat', [flag({ conversation: [] })]);
    expect(digest).toContain('the flagged reply is the first message of the chat');
  });
});
