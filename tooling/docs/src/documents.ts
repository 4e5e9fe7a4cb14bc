import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';

/** The repository's root. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The documents a reader of the repository reads: the README, CONTRIBUTING.md and every markdown file under docs/. */
export function documents(): string[] {
  const underDocs = (dir: string): string[] =>
    readdirSync(join(repositoryRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return underDocs(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'CONTRIBUTING.md', ...underDocs('docs')];
}

/** A document's text, by its path from the repository's root. */
export const readDocument = (path: string): string => readFileSync(join(repositoryRoot, path), 'utf8');

/** A document's markdown tokens, as GitHub-flavoured markdown parses them. */
export const tokensOf = (path: string): Token[] => marked.lexer(readDocument(path), { gfm: true });

/** Every token of a tree, nested ones (in lists, tables, links, emphasis) included, in document order. */
export function allTokens(tokens: Token[]): Token[] {
  const found: Token[] = [];
  // The callback is synchronous: the array of its results that walkTokens returns holds no promise.
  void marked.walkTokens(tokens, (token) => {
    found.push(token);
  });
  return found;
}

/** The text a heading shows, as GitHub makes its anchor from: code spans' and links' text without their markup. */
function shownText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens) return shownText(token.tokens);
      if (token.type === 'codespan' || token.type === 'text' || token.type === 'escape') return decodeEntities(token.text);
      return token.raw;
    })
    .join('');
}

/** marked hands a code span's text over with `&`, `<`, `>` and quotes as entities; a heading shows them as characters. */
const decodeEntities = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** The anchors of a document's headings, as GitHub makes them (github-slugger: duplicates get `-1`, `-2`...). */
export function anchorsOf(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const headings = allTokens(tokensOf(path)).filter((token): token is Tokens.Heading => token.type === 'heading');
  return new Set(headings.map((heading) => slugger.slug(shownText(heading.tokens))));
}

/** Every link and image target of a document, as written. */
export function linksOf(path: string): string[] {
  return allTokens(tokensOf(path)).flatMap((token) => (token.type === 'link' || token.type === 'image' ? [token.href] : []));
}

/** A path from the repository's root, for messages. */
export const fromRoot = (path: string): string => relative(repositoryRoot, path);
