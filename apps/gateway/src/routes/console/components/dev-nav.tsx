const pages = [
  { path: '/dev/outbox', label: 'Outbox' },
  { path: '/dev/mailbox', label: 'Mailbox' },
] as const;

/** Between the dev pages, which have no signed-in header. */
export function DevNav({ current }: { current: (typeof pages)[number]['path'] }) {
  return (
    <nav className="subnav" aria-label="Dev pages">
      {pages.map(({ path, label }) => (
        <a key={path} href={path} aria-current={path === current ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
