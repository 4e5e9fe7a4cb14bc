/** A list's links to its first page (once past it) and its next one (while there is one). */
export function Pager({ link, paged, nextCursor }: { link: (cursor?: string) => string; paged: boolean; nextCursor: string | null }) {
  return (
    <nav className="pager" aria-label="Pages">
      {paged && <a href={link()}>First page</a>}
      {nextCursor && <a href={link(nextCursor)}>Next page</a>}
    </nav>
  );
}
