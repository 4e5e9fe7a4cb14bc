import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface AppProcess {
  child: ChildProcess;
  /** What it wrote so far, stdout and stderr interleaved as they arrived (empty with `stdio: 'inherit-stderr'`). */
  output(): string;
  /** Resolves with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once its output contains `text`; rejects if it exits first or `timeoutMs` pass. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  /** Sends `signal` (SIGTERM unless told) and resolves once it exited; at once if it already had. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<AppProcess>();

/**
 * An app's entry point (`src/main.ts`) run as its own process under tsx, as `pnpm --filter <app> start` runs it,
 * with only PATH and `env` in its environment. `stopApps()` (in an afterAll) kills those still running.
 */
export function startApp(
  entry: string,
  env: Record<string, string>,
  { stdio = 'pipe', execArgv = [] }: { stdio?: 'pipe' | 'inherit-stderr'; execArgv?: string[] } = {},
): AppProcess {
  const child = spawn(process.execPath, [...execArgv, '--import', import.meta.resolve('tsx'), entry], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', stdio === 'pipe' ? 'pipe' : 'ignore', stdio === 'pipe' ? 'pipe' : 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const app: AppProcess = {
    child,
    output: () => output,
    exited,
    async waitForOutput(text, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before writing "${text}": ${output}`);
        if (Date.now() > deadline) throw new Error(`no "${text}" after ${timeoutMs} ms in: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(app);
  void exited.then(() => running.delete(app));
  return app;
}

/** Kills every process `startApp` started that still runs, and waits for them to exit. */
export async function stopApps(): Promise<void> {
  await Promise.all([...running].map((app) => app.stop('SIGKILL')));
}

/** Resolves once `url` answers below 500 (a process that just started listens and is ready); throws after `timeoutMs`. */
export async function waitUntilAnswering(url: string, { method = 'GET', timeoutMs = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { method });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
