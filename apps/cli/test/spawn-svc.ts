import { fileURLToPath } from 'node:url';
import { type GroupOptions, type ProcessGroup, spawnGroup, stopProcesses } from '@svc/testkit';
import { afterEach } from 'vitest';

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

// A test that fails or times out leaves no `svc` running.
afterEach(stopProcesses);

/**
 * Starts the real `svc` binary and lets the test watch it while it runs (no TTY: as in CI); with `stdin: 'pipe'`, what
 * the test writes to `child.stdin` is its input.
 */
export function spawnSvc(
  args: string[],
  env: Record<string, string | undefined>,
  options: Pick<GroupOptions, 'stdin' | 'cwd'> = {},
): ProcessGroup {
  return spawnGroup(process.execPath, [bin, ...args], { ...options, env: { NO_COLOR: '1', ...env } });
}

/**
 * `svc <args>` run on a pseudo-terminal by util-linux `script`: the CLI sees a TTY as in a developer's shell, and
 * what the test writes to `child.stdin` is typed at it. `args` is the rest of a shell command line: arguments, and
 * redirections if any.
 */
export function svcOnTerminal(args: string, env: Record<string, string | undefined>, cwd?: string): ProcessGroup {
  const command = `'${process.execPath}' '${bin}' ${args}`;
  return spawnGroup('script', ['-qfec', command, '/dev/null'], { env, cwd, stdin: 'pipe' });
}
