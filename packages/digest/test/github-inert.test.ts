import type { Html, Link, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkGithub from 'remark-github';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { renderFlagsIssue, renderPrComment, renderRunReport } from '../src/index.ts';
import { flag } from './flag-fixtures.ts';
import { replayed, result, run } from './run-fixtures.ts';

const url = 'http://localhost:8080/w/acme/evals/run_07';

/**
 * What anyone may write where our markdown quotes it (a case's expected outcome, a visitor's turn, an agent's reply, a
 * judge's reasoning steered by that reply, a supervisor's note): each kind of text GitHub turns into a ping or a link.
 */
const hostile = [
  '@octo-org/security-team ping',
  '@ada, look',
  'mail security@example.com',
  'https://evil.example/phish',
  'www.evil.example',
  'see #12, GH-7 and octo-org/infra#3',
  'fixed in 9f8e7d6c5b4a',
  '<img src=x onerror=alert(1)>',
  '[click](https://evil.example)',
].join(' · ');

/** The document as GitHub reads it: GFM (autolinks, tables, HTML) and its references (mentions, issues, commits). */
function parsed(markdown: string): Root {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkGithub, { repository: 'acme/agents' });
  return processor.runSync(processor.parse(markdown)) as Root;
}

/** Every link GitHub would render, and every HTML node. */
function live(markdown: string): { links: string[]; html: string[] } {
  const tree = parsed(markdown);
  const links: string[] = [];
  const html: string[] = [];
  visit(tree, 'link', (node: Link) => void links.push(node.url));
  visit(tree, 'html', (node: Html) => void html.push(node.value));
  return { links, html };
}

/** What a reader sees: the text of every node, the invisible breaks left out. */
function seen(markdown: string): string {
  const parts: string[] = [];
  visit(parsed(markdown), (node) => {
    if ('value' in node && typeof node.value === 'string' && node.type !== 'html') parts.push(node.value);
  });
  return parts.join(' ').replace(/\u200b/g, '');
}

/** Our own markup: the PR comment's hidden marker and folded table, the flags' anchors and the index's links to them. */
const ourHtml = /^(<!-- svc:[\w-]+ -->|<details><summary>[^<]*<\/summary>|<\/details>|<a id="flg_\w+">|<\/a>)$/;
const ourLink = (link: string) => link === url || /^#flg_\w+$/.test(link);

function expectInert(markdown: string): void {
  const { links, html } = live(markdown);
  expect(links.filter((link) => !ourLink(link))).toEqual([]);
  expect(html.filter((value) => !ourHtml.test(value))).toEqual([]);
}

describe('text anyone can write renders on GitHub as written: no mention, no team ping, no autolink, no HTML', () => {
  const failing = result({ verdict: 'fail', graded: 'fail', regression: true, reasoning: `The reply said ${hostile}` });

  it('in the PR comment: the lists and the table of cases', () => {
    const comment = renderPrComment({ state: 'finished', workspace: 'acme', run: run([failing]), baseline: null, url });
    expectInert(comment);
    expect(seen(comment)).toContain(hostile);
  });

  it("in the PR comment of a manifest's errors", () => {
    const comment = renderPrComment({
      state: 'failed',
      stage: 'manifest',
      workspace: 'acme',
      message: hostile,
      issues: [{ file: 'agents/support.yaml', path: 'tools.0.url', message: hostile }],
    });
    expectInert(comment);
  });

  it('in the run report, whose cases quote the turns, the replies and the expected outcome', () => {
    const report = renderRunReport({
      workspace: 'acme',
      run: run([failing]),
      baseline: null,
      cases: { [failing.case_id]: replayed({ turns: [hostile], replies: [hostile], expected: hostile }) },
      url,
    });
    expectInert(report);
    expect(seen(report)).toContain(hostile);
  });

  it('in the flags issue, which quotes the conversation, the reply and the note', () => {
    const flags = [
      flag({ reply: hostile, note: hostile, conversation: [{ role: 'visitor', text: hostile, created_at: '2026-06-01T12:00:00.000Z' }] }),
    ];
    const body = renderFlagsIssue({ workspace: 'acme', flags, flagsUrl: url });
    expectInert(body);
    expect(seen(body)).toContain(hostile);
  });

  it('the parser is the one GitHub rules need: the same text left bare pings, links and renders HTML', () => {
    const { links, html } = live(hostile);
    expect(links).toEqual(
      expect.arrayContaining([
        'https://github.com/octo-org/security-team',
        'https://github.com/ada',
        'mailto:security@example.com',
        'https://evil.example/phish',
        'https://github.com/acme/agents/issues/12',
        'https://github.com/octo-org/infra/issues/3',
      ]),
    );
    expect(html).toContain('<img src=x onerror=alert(1)>');
  });
});
