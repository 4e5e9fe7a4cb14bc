import type { SizeMeasures } from './measure.ts';

const thousands = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n < 10 ? n.toFixed(1) : thousands(n));
const mb = (bytes: number) => thousands(bytes / 1024 / 1024);
const kb = (bytes: number) => (bytes < 10_240 ? (bytes / 1024).toFixed(1) : thousands(bytes / 1024));

/** One size's line of what it holds, in the shape of the operator's table. */
function holds({ size, counts, buildMs }: SizeMeasures): string {
  const c = counts;
  return (
    `${size.name}: ${thousands(c.verifications)} verifications, ${thousands(c.chats)} chats, ${thousands(c.openFlags)} open flags ` +
    `(${thousands(c.cases)} cases), ${thousands(c.finishedRuns)} finished runs (${thousands(c.executions)} executions); ` +
    `copies written in ${(buildMs / 1000).toFixed(1)} s`
  );
}

/**
 * One store's table: a row per measure, for each size its median and p95 (and the answer's size), then the last size
 * over the first, which is what matters: a cost that grows with the answer keeps it near 1 when the answer does not grow.
 */
export function storeTable(store: string, sizes: SizeMeasures[], requests: number): string {
  const first = sizes[0]!;
  const last = sizes.at(-1)!;
  const ratioName = `${last.size.name}/${first.size.name}`;
  const rows: string[][] = [];
  for (const name of first.endpoints.keys()) {
    const cells = sizes.flatMap(({ endpoints }) => {
      const { median, p95, bytes } = endpoints.get(name)!;
      return [ms(median), ms(p95), kb(bytes)];
    });
    rows.push([name, ...cells, (last.endpoints.get(name)!.median / first.endpoints.get(name)!.median).toFixed(1)]);
  }
  const single = (name: string, value: (measures: SizeMeasures) => number, format: (n: number) => string) => {
    rows.push([name, ...sizes.flatMap((measures) => [format(value(measures)), '', '']), (value(last) / value(first)).toFixed(1)]);
  };
  single("core's start, spawn to /healthz 200 (ms)", (m) => m.startMs, ms);
  single("core's RSS once started (MB)", (m) => m.rss.started, mb);
  single("core's peak RSS over the measures (MB)", (m) => m.rss.peak, mb);
  single('retention pass, deleting nothing (ms), median of 3', (m) => m.retention.median, ms);
  single('  its first pass after core stopped (ms)', (m) => m.retention.first, ms);

  const header = ['measure', ...sizes.flatMap(({ size }) => [`${size.name} median`, `${size.name} p95`, `${size.name} KB`]), ratioName];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const failed = sizes.flatMap(({ size, endpoints }) =>
    [...endpoints]
      .filter(([, { failures }]) => failures.length > 0)
      .map(([name, { failures }]) => `${name} at ${size.name}: ${failures.join(', ')}`),
  );
  const deleted = sizes.filter(({ retention }) => retention.deleted > 0).map(({ size, retention }) => `${size.name}: ${retention.deleted}`);
  return [
    `\nscale, core on ${store}: one workspace at ${sizes.map(({ size }) => size.name).join(' and ')}, each endpoint read ${requests} times in turn, ms`,
    ...sizes.map((measures) => `  ${holds(measures)}`),
    line(header),
    ...rows.map(line),
    `(${ratioName}: the medians' ratio; p95 of ${requests} is the nearest rank; KB: the answer's size; retention: core's pass run in this process on the same database with core stopped` +
      `${deleted.length ? `; it deleted rows, so it did more than an empty pass: ${deleted.join(', ')}` : ', deleting nothing'})`,
    ...(failed.length ? [`answers other than 200, timed all the same: ${failed.join('; ')}`] : []),
  ].join('\n');
}

/** What core logged while it started, per size, with each line's time from its spawn. */
export function startLogs(store: string, sizes: SizeMeasures[]): string {
  return sizes
    .map(
      ({ size, startLog, startMs }) =>
        `core's log while it started on ${store} at ${size.name} (${ms(startMs)} ms to /healthz):\n${startLog.map((l) => `  ${l}`).join('\n')}`,
    )
    .join('\n');
}
