import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

export interface SvcResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `svc` binary in its own process, with only the given environment. */
export function runSvc(args: string[], env: Record<string, string | undefined>, input?: string, cwd?: string): Promise<SvcResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, timeout: 20_000, cwd },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input === undefined) child.stdin?.end();
    else child.stdin?.end(input);
  });
}
