/**
 * `pnpm bench:scale`: what one workspace's endpoints, core's start and its retention pass cost as the workspace's
 * history grows, on SQLite and on PostgreSQL. A small template is made through the real entry points (core, the
 * gateway and an eval runner as built processes): verifications whose codes reach a fake WhatsApp Cloud API, chats
 * with the scripted demo agent, flags with notes and their eval cases, runs on live replayed to their end on the
 * deterministic grader, a person's verdict. Each size is a copy of that database multiplied with SQL (every column of
 * every table of the history and of the runs, found in the catalog), on which core and the gateway start as built
 * processes: core's start (spawn to /healthz 200) and memory, each endpoint's median and p95 over sequential
 * requests, and a retention pass that deletes nothing are printed per size, with the largest size over the smallest.
 * A store's databases are made fresh and dropped (PostgreSQL on the machine's server, SVC_TEST_POSTGRES_URL).
 *
 * BENCH_SCALE_SIZES=S,M,L chooses the sizes (S,L), BENCH_SCALE_REQUESTS the requests per endpoint (5),
 * BENCH_ONLY=SQLite or PostgreSQL one store, BENCH_PROFILE=DIR core's CPU profiles.
 */
import { dropPostgresDatabases, graphAccepted, removeTempDirs, startFakeProvider, stopProcesses } from '@svc/testkit';
import { measureSize, type SizeMeasures } from './scale/measure.ts';
import type { Size } from './scale/multiply.ts';
import { startLogs, storeTable } from './scale/report.ts';
import { emptyStores } from './scale/stores.ts';
import { buildTemplate } from './scale/template.ts';

/** Copies of the template (a tenth of S) each size holds: S and L are the operator's two sizes, M between. */
const sizes: Record<string, Omit<Size, 'name'>> = {
  S: { copies: 10, runGenerations: 0 },
  M: { copies: 100, runGenerations: 10 },
  L: { copies: 1000, runGenerations: 34 },
};
const chosen = (process.env.BENCH_SCALE_SIZES ?? 'S,L').split(',').map((name): Size => {
  const size = sizes[name.trim()];
  if (!size) throw new Error(`BENCH_SCALE_SIZES: no size ${name}; the sizes are ${Object.keys(sizes).join(', ')}`);
  return { name: name.trim(), ...size };
});
const requests = Number(process.env.BENCH_SCALE_REQUESTS ?? 5);
const only = process.env.BENCH_ONLY ?? '';

async function main(): Promise<void> {
  const graph = await startFakeProvider(graphAccepted, { keep: false });
  for (const [name, empty] of Object.entries(emptyStores).filter(([name]) => name.includes(only))) {
    const started = performance.now();
    const template = await empty();
    const made = await buildTemplate(template, graph);
    process.stderr.write(`${name}: template made in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    const measured: SizeMeasures[] = [];
    for (const size of chosen) {
      const sizeStarted = performance.now();
      measured.push(await measureSize(template, made, size, requests, graph.url));
      process.stderr.write(`${name}: ${size.name} built and measured in ${((performance.now() - sizeStarted) / 1000).toFixed(0)} s\n`);
    }
    await template.drop();
    process.stdout.write(`${storeTable(name, measured, requests)}\n${startLogs(name, measured)}\n`);
  }
  await graph.close();
}

try {
  await main();
} finally {
  await stopProcesses();
  await dropPostgresDatabases();
  removeTempDirs();
}
