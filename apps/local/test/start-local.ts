import { fileURLToPath } from 'node:url';
import { appArguments } from '@svc/server-kit';
import { freePort, type ProcessResult, runProcess, spawnGroup, stopProcesses } from '@svc/testkit';
import { afterEach } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const svcBin = fileURLToPath(new URL('../../cli/bin/svc.js', import.meta.url));

// Whatever the test's end, `pnpm start` and the core, gateway and eval runner it started stop with it: they are
// one process group.
afterEach(stopProcesses);

/** The ports of a local start: the gateway's, core's and the demo backend's, free for now. */
export async function freePorts(): Promise<{ PORT: string; CORE_PORT: string; DEMO_BACKEND_PORT: string }> {
  const [port, core, demo] = [await freePort(), await freePort(), await freePort()];
  return { PORT: String(port), CORE_PORT: String(core), DEMO_BACKEND_PORT: String(demo) };
}

/** `pnpm start` as its own process, with only the given environment; `ready` resolves with its banner. */
export function startLocal(env: Record<string, string>) {
  const local = spawnGroup(process.execPath, appArguments(main), { env: { LOG_LEVEL: 'warn', ...env } });
  const ready = local.waitForOutput('Press Ctrl-C', { stream: 'stdout', timeoutMs: 60_000 }).then(() => local.output('stdout'));
  ready.catch(() => {}); // a test that expects a failed start awaits `exited` instead
  return { ...local, ready };
}

/** The real `svc` CLI in its own process, in `cwd`, with only the given environment. */
export function svc(args: string[], env: Record<string, string>, cwd: string): Promise<ProcessResult> {
  return runProcess(process.execPath, [svcBin, ...args], { env: { NO_COLOR: '1', ...env }, cwd, timeoutMs: 60_000 });
}
