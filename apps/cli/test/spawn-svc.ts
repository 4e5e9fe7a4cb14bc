import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

export interface RunningSvc {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  /** Resolves with the first match of `pattern` in stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number>;
}

/** Starts the real `svc` binary and lets the test watch it while it runs (no TTY: as in CI). */
export function spawnSvc(args: string[], env: Record<string, string | undefined>): RunningSvc {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited: once(child, 'exit').then(([code]) => code as number),
    async waitFor(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stderr);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
