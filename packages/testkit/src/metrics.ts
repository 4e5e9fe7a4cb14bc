/** One series of a scrape: its labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** The scrape as served. */
  text: string;
  /** The value of the series `name` whose labels are exactly `labels`; undefined when there is none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every series of `name`, by its labels. */
  series(name: string): Sample[];
}

const line = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const label = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Parses Prometheus's text format (the lines of samples; comments skipped). */
export function parseMetrics(text: string): Scrape {
  const samples: Sample[] = text.split('\n').flatMap((row) => {
    const match = line.exec(row);
    if (!match || row.startsWith('#')) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(label)].map(([, key, value]) => [key!, JSON.parse(`"${value}"`) as string]),
    );
    return [{ name: match[1]!, labels, value: Number(match[3]) }];
  });
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);
  return {
    text,
    value: (name, labels = {}) => samples.find((s) => s.name === name && same(s.labels, labels))?.value,
    series: (name) => samples.filter((s) => s.name === name),
  };
}

/** GETs a process's `/metrics`, as Prometheus scrapes it, and parses the answer; fails on anything but a 200. */
export async function scrapeMetrics(url: string): Promise<Scrape> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return parseMetrics(text);
}
