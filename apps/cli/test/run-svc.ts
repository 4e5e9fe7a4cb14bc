import { fileURLToPath } from 'node:url';
import { type ProcessResult, runProcess, stopProcesses } from '@svc/testkit';
import { afterEach } from 'vitest';

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

// A test that fails or times out leaves no `svc` running.
afterEach(stopProcesses);

/** Runs the real `svc` binary in its own process, with only the given environment; stopped after 20 s. */
export function runSvc(args: string[], env: Record<string, string | undefined>, input?: string, cwd?: string): Promise<ProcessResult> {
  return runProcess(process.execPath, [bin, ...args], { env: { NO_COLOR: '1', ...env }, input, cwd, timeoutMs: 20_000 });
}
