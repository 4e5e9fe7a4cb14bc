import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '@svc/testkit';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const svcBin = fileURLToPath(new URL('../../cli/bin/svc.js', import.meta.url));
const tsx = import.meta.resolve('tsx');

let child: ChildProcess | undefined;

/** Kills what `startLocal` started last, if it still runs. */
export function stopLocal(): void {
  child?.kill('SIGKILL');
}

/** The ports of a local start: the gateway's, core's and the demo backend's, free for now. */
export async function freePorts(): Promise<{ PORT: string; CORE_PORT: string; DEMO_BACKEND_PORT: string }> {
  const [port, core, demo] = [await freePort(), await freePort(), await freePort()];
  return { PORT: String(port), CORE_PORT: String(core), DEMO_BACKEND_PORT: String(demo) };
}

/** `pnpm start` as its own process, with only the given environment; `ready` resolves with its banner. */
export function startLocal(env: Record<string, string>) {
  child = spawn(process.execPath, ['--import', tsx, main], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = child;
  let stdout = '';
  let stderr = '';
  started.stdout!.on('data', (chunk) => (stdout += chunk));
  started.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(started, 'exit').then(([code]) => code as number | null);
  const ready = new Promise<string>((resolve, reject) => {
    started.stdout!.on('data', () => stdout.includes('Press Ctrl-C') && resolve(stdout));
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  ready.catch(() => {}); // a test that expects a failed start awaits `exited` instead
  return { child: started, ready, exited, output: () => ({ stdout, stderr }) };
}

/** The real `svc` CLI in its own process, in `cwd`, with only the given environment. */
export function svc(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [svcBin, ...args],
      { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, cwd, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
