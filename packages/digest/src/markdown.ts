/** Markdown building blocks that keep untrusted text inert: it is shown as written, never read as markup. */

const longestRun = (text: string, char: string): number =>
  Math.max(0, ...Array.from(text.matchAll(new RegExp(`${char}+`, 'g')), (m) => m[0].length));

/** Line endings as `\n`: a lone `\r` would end a line too, so it is made visible as one. */
const normalizeLines = (text: string): string => text.replace(/\r\n?/g, '\n');

/**
 * Text cut to `max` characters (code points, so no emoji is split), with a line saying how much was left out.
 * The marker goes inside the fenced block it belongs to, so the reader sees where the value stops.
 */
export function trimmed(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('')}\n… (${chars.length - max} more characters)`;
}

/**
 * A fenced code block longer than any run of backticks in the text, so no line of the text can close it
 * (a closing fence must be at least as long as the opening one).
 */
export function fenced(text: string, info = 'text'): string {
  const body = normalizeLines(text);
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

/** An inline code span on one line, delimited by more backticks than it holds, trimmed to `max` characters. */
export function code(text: string, max = 200): string {
  const chars = Array.from(normalizeLines(text).replace(/\n/g, ' '));
  const shown = chars.length <= max ? chars.join('') : `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)`;
  if (shown === '') return '(empty)';
  const ticks = '`'.repeat(longestRun(shown, '`') + 1);
  // A span that starts or ends with a backtick needs a space inside its delimiters; one space each side is stripped.
  const pad = /^[` ]|[` ]$/.test(shown) ? ' ' : '';
  return `${ticks}${pad}${shown}${pad}${ticks}`;
}

/** An ISO 8601 UTC timestamp as `2026-06-01 12:00:00 UTC`. */
export const utc = (iso: string): string => `${iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '')} UTC`;

/** Text safe inside an HTML attribute value. */
export const attribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** U+200B: invisible where it sits, and enough to keep GitHub from reading a ping, a link or a reference there. */
const zeroWidthSpace = '\u200b';

/**
 * What GitHub would read in running text as a ping or a link, broken by a zero-width space: mentions of people and
 * teams (`@name`, `@org/team`) and e-mail addresses, after the `@`; autolinked URLs (`https:` `//`, `www` `.`);
 * references to issues (`#12`, `GH-12`, `owner/repo#12`) and commits (7 to 40 hex digits, one a digit at least).
 */
function inertOnGithub(text: string): string {
  return text
    .replace(/@(?=\w)/g, `@${zeroWidthSpace}`)
    .replace(/:\/\//g, `:${zeroWidthSpace}//`)
    .replace(/\b(www)\./gi, `$1${zeroWidthSpace}.`)
    .replace(/#(?=\d)/g, `#${zeroWidthSpace}`)
    .replace(/\b(gh)-(?=\d)/gi, `$1-${zeroWidthSpace}`)
    .replace(/\b(?=[\da-f]*\d)([\da-f])(?=[\da-f]{6,39}\b)/gi, `$1${zeroWidthSpace}`);
}

/**
 * Text as plain words on one line, trimmed to `max` characters: every character that could start markup (emphasis,
 * links, code, HTML, entities, strikethrough, table cells) is backslash-escaped, and what GitHub would turn into a
 * mention or a link is broken invisibly, so the reader sees it as written and nobody is pinged.
 */
export function inline(text: string, max = 500): string {
  const chars = Array.from(
    normalizeLines(text)
      .replace(/\s*\n\s*/g, ' ')
      .trim(),
  );
  const shown = chars.length <= max ? chars.join('') : `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)`;
  return inertOnGithub(shown.replace(/[\\`*_[\]<>&~|!#]/g, '\\$&'));
}

/** A count with thousands separated by commas, whatever the machine's locale. */
export const count = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const plural = (n: number, word: string, many = `${word}s`): string => `${count(n)} ${n === 1 ? word : many}`;
