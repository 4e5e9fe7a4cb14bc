import { type CaseResult, isFlaky } from '../trends.ts';

const cell = 14;
const gap = 3;

/**
 * A case's last live results as a strip of squares, oldest on the left and newest at the right end (both ends said),
 * coloured by verdict (the stylesheet's `.cell.pass` and the like) and titled with its version; the slots not filled
 * yet are left blank, on the left. Flaky when it flipped with no new version.
 */
export function CaseStrip({ results, slots }: { results: CaseResult[]; slots: number }) {
  if (results.length === 0) return <p className="muted strip-none">Not run on live yet.</p>;
  const flaky = isFlaky(results);
  // The slots not filled yet are on the left: the newest result is always at the right end.
  const empty = slots - results.length;
  const label =
    `Last ${results.length} live result${results.length === 1 ? '' : 's'}, oldest first: ` +
    results.map((r) => `${r.verdict} (v${r.version})`).join(', ') +
    (flaky ? '. Flaky: it flipped with no new version.' : '.');
  return (
    <p className="strip">
      <span className="muted strip-end">Live: oldest</span>
      <svg
        viewBox={`0 0 ${slots * (cell + gap) - gap} ${cell}`}
        width={slots * (cell + gap) - gap}
        height={cell}
        role="img"
        aria-label={label}
      >
        {Array.from({ length: empty }, (_, i) => (
          <rect key={i} className="slot" x={i * (cell + gap)} y={0} width={cell} height={cell} rx={2} />
        ))}
        {results.map((result, i) => (
          <rect
            key={result.runId}
            className={`cell ${result.verdict}`}
            x={(empty + i) * (cell + gap)}
            y={0}
            width={cell}
            height={cell}
            rx={2}
          >
            <title>{`v${result.version}: ${result.verdict}`}</title>
          </rect>
        ))}
      </svg>
      <span className="muted strip-end">newest</span>
      {flaky && <span className="verdict flaky">flaky</span>}
    </p>
  );
}
