import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, documents, fromRoot, linksOf, repositoryRoot } from '../src/documents.ts';

/** A link that leaves the repository: a web address, a mail address. */
const external = /^[a-z][a-z0-9+.-]*:/i;

/** What is wrong with one relative link of `document`, or undefined when it leads where it says. */
function brokenLink(document: string, href: string): string | undefined {
  const [target = '', anchor] = href.split('#', 2);
  const file = target === '' ? join(repositoryRoot, document) : normalize(join(repositoryRoot, dirname(document), decodeURI(target)));
  if (!file.startsWith(repositoryRoot)) return `${href}: leads out of the repository`;
  if (!existsSync(file)) return `${href}: ${fromRoot(file)} does not exist`;
  if (anchor === undefined) return undefined;
  if (!statSync(file).isFile() || !file.endsWith('.md')) return `${href}: an anchor into ${fromRoot(file)}, which is not a document`;
  if (!anchorsOf(fromRoot(file)).has(decodeURIComponent(anchor))) return `${href}: ${fromRoot(file)} has no heading #${anchor}`;
  return undefined;
}

describe('the documents\u2019 links', () => {
  it.each(documents())('every relative link and anchor of %s leads to a file and a heading that exist', (document) => {
    const broken = linksOf(document)
      .filter((href) => !external.test(href))
      .flatMap((href) => brokenLink(document, href) ?? []);
    expect(broken).toEqual([]);
  });

  it('a broken link or anchor is found', () => {
    expect(brokenLink('README.md', 'docs/none.md')).toBe('docs/none.md: docs/none.md does not exist');
    expect(brokenLink('README.md', '#no-such-heading')).toBe('#no-such-heading: README.md has no heading #no-such-heading');
    expect(brokenLink('README.md', 'docs/api.md#errors')).toBeUndefined();
  });

  it('every document under docs/ is reached by a link from the README, or from a document it reaches', () => {
    const reached = new Set<string>();
    const visit = (document: string): void => {
      if (reached.has(document)) return;
      reached.add(document);
      for (const href of linksOf(document)) {
        const [target = ''] = href.split('#', 1);
        if (external.test(href) || !target.endsWith('.md')) continue;
        const file = fromRoot(normalize(join(repositoryRoot, dirname(document), decodeURI(target))));
        if (existsSync(join(repositoryRoot, file))) visit(file);
      }
    };
    visit('README.md');
    expect(documents().filter((document) => !reached.has(document))).toEqual([]);
  });
});
