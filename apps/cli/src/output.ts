import { createColors } from 'picocolors';

/** Colours for what goes to stderr: only when stderr is a terminal and NO_COLOR is unset, never into a file. */
export const stderrColors = createColors(Boolean(process.stderr.isTTY) && !process.env.NO_COLOR);

/** Prints rows as aligned columns under upper-case headers, as `gh` and `kubectl` do. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${[line(headers.map((h) => h.toUpperCase())), ...rows.map(line)].join('\n')}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Colours for stdout: only on a terminal with NO_COLOR unset, so pipes and files get plain text. */
export const stdoutColors = createColors(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);
