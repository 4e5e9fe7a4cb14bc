import { passRate } from '@svc/digest';
import { type EvalRunView, percent } from '@svc/domain';
import { evalRunPath, evalRunsPath } from '../paths.ts';

export interface PassRateTrendProps {
  workspace: string;
  environment: string;
  /** Finished runs with cases, oldest first. */
  runs: EvalRunView[];
  /** Live's latest finished run, the line other environments are read against. */
  live: EvalRunView | null;
}

// The drawing's own units: the viewBox scales it to the page's width, its text with it.
const width = 360;
const height = 144;
const plot = { left: 42, right: 8, top: 8, bottom: 38 };
const plotWidth = width - plot.left - plot.right;
const plotHeight = height - plot.top - plot.bottom;

/** Where a run's point goes: runs spread evenly from left to right, a rate from the bottom (0 %) to the top (100 %). */
export function pointAt(index: number, count: number, rate: number): { x: number; y: number } {
  const x = plot.left + (count === 1 ? plotWidth / 2 : (index * plotWidth) / (count - 1));
  return { x: Math.round(x * 10) / 10, y: Math.round((plot.top + (1 - rate) * plotHeight) * 10) / 10 };
}

/** The least room between two version labels, so that they never overlap. */
const labelGap = 26;

/** The runs whose `key` (version, case count) is written under their point: where it changed, when there is room. */
function labelled(points: { run: EvalRunView; x: number }[], key: (run: EvalRunView) => number): Set<string> {
  const shown = new Set<string>();
  let lastX = -Infinity;
  points.forEach(({ run, x }, i) => {
    const before = points[i - 1]?.run;
    if ((before && key(run) === key(before)) || x - lastX < labelGap) return;
    shown.add(run.id);
    lastX = x;
  });
  return shown;
}

const cases = (n: number) => `${n} case${n === 1 ? '' : 's'}`;

/** A point's title: its version, its cases and how many more or fewer than the run before, what passed. */
function describe(run: EvalRunView, before?: EvalRunView): string {
  const change = before ? run.cases - before.cases : 0;
  const changed = change === 0 ? '' : ` (${Math.abs(change)} ${change > 0 ? 'more' : 'fewer'} than the run before)`;
  return `v${run.version.number}, ${cases(run.cases)}${changed}: ${run.passed} passed (${percent(passRate(run)!)} %)`;
}

/**
 * The pass rate of an environment's last finished runs as an inline SVG: a point per run (linking to it, its
 * version and counts in its title), its case count and its version under each point where they changed (a rate
 * that moved because cases were added shows so), and live's latest rate as a dashed line. No script and no inline style: the policy allows neither; the stylesheet colours it.
 */
export function PassRateTrend({ workspace, environment, runs, live }: PassRateTrendProps) {
  const points = runs.map((run, i) => ({ run, ...pointAt(i, runs.length, passRate(run)!) }));
  const liveRate = live && environment !== live.environment ? passRate(live) : null;
  const versions = labelled(points, (run) => run.version.number);
  const counts = labelled(points, (run) => run.cases);
  const first = runs[0]!;
  const last = runs.at(-1)!;
  const id = `trend-${environment}`;
  const summary =
    `Pass rate of the last ${runs.length} finished run${runs.length === 1 ? '' : 's'} on ${environment}: ` +
    (runs.length === 1
      ? describe(last)
      : `from ${percent(passRate(first)!)} % (v${first.version.number}, ${cases(first.cases)}) to ${percent(passRate(last)!)} % (v${last.version.number}, ${cases(last.cases)})`) +
    (liveRate === null ? '.' : `; live's latest run: ${percent(liveRate)} % (v${live!.version.number}).`);
  return (
    <figure className="trend">
      <figcaption>
        <a href={`${evalRunsPath(workspace)}?environment=${encodeURIComponent(environment)}`}>{environment}</a>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{`Pass rate on ${environment}`}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, 0.5, 1].map((rate) => {
          const { y } = pointAt(0, 2, rate);
          return (
            <g key={rate} className="grid">
              <line x1={plot.left} x2={width - plot.right} y1={y} y2={y} />
              <text x={plot.left - 4} y={y + 3} textAnchor="end">
                {`${percent(rate)} %`}
              </text>
            </g>
          );
        })}
        {liveRate !== null && (
          <g className="live">
            <line x1={plot.left} x2={width - plot.right} y1={pointAt(0, 2, liveRate).y} y2={pointAt(0, 2, liveRate).y} />
            <text x={width - plot.right} y={pointAt(0, 2, liveRate).y - 3} textAnchor="end">
              {`live ${percent(liveRate)} %`}
            </text>
          </g>
        )}
        <polyline className="line" points={points.map(({ x, y }) => `${x},${y}`).join(' ')} />
        {counts.size > 0 && (
          <text className="cases-axis" x={plot.left - 12} y={height - 22} textAnchor="end">
            cases
          </text>
        )}
        {points.map(({ run, x, y }, i) => (
          <g key={run.id}>
            <a href={evalRunPath(workspace, run.id)}>
              <circle className="point" cx={x} cy={y} r={4}>
                <title>{describe(run, runs[i - 1])}</title>
              </circle>
            </a>
            {counts.has(run.id) && (
              <text className="cases" x={x} y={height - 22} textAnchor="middle">
                {run.cases}
              </text>
            )}
            {versions.has(run.id) && (
              <text className="version" x={x} y={height - 6} textAnchor="middle">
                v{run.version.number}
              </text>
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}
