import { LinkifyIt } from 'linkify-it';
import { Fragment, type ReactNode } from 'react';

// Only links with an http or https scheme become links: never a bare word or address, never another scheme.
const linkify = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false })
  .add('ftp:', null)
  .add('mailto:', null)
  .add('//', null);

/** Plain text with its web links clickable. */
export function LinkedText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let shown = 0;
  for (const link of linkify.match(text) ?? []) {
    parts.push(
      <Fragment key={link.index}>
        {text.slice(shown, link.index)}
        <a href={link.url}>{link.text}</a>
      </Fragment>,
    );
    shown = link.lastIndex;
  }
  parts.push(text.slice(shown));
  return <>{parts}</>;
}
