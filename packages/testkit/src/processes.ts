import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { appArguments } from '@svc/server-kit';

/**
 * What every process a test starts carries in its environment, set to the vitest run's id (SVC_TEST_RUN, which the
 * root vitest.config.ts sets): by it the run's teardown finds what was left running, these processes and whatever
 * they started. Vitest's workers carry SVC_TEST_RUN but not this, so they are never taken for leftovers.
 */
export const testChildVariable = 'SVC_TEST_CHILD';

/** A process a test started, in a process group of its own with whatever it starts. */
export interface ProcessGroup {
  child: ChildProcess;
  /** What it wrote so far: stdout and stderr interleaved as they arrived, or one of them (empty unless piped). */
  output(stream?: 'stdout' | 'stderr'): string;
  /** Resolves with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /**
   * Resolves with the first match of `pattern` in its output (or in one stream of it); rejects if it exits first or
   * `timeoutMs` (20 s unless told; a number alone is that) pass.
   */
  waitForOutput(pattern: string | RegExp, options?: number | { stream?: 'stdout' | 'stderr'; timeoutMs?: number }): Promise<string[]>;
  /**
   * Sends `signal` (SIGTERM unless told) to the whole group, SIGKILL to what is left of it after a grace period, and
   * resolves with its exit code. A process that exited is let be, but not what it left behind in its group.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface GroupOptions {
  /** Its environment besides PATH: nothing else of this process's, so that no setting of the developer's leaks in. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** `pipe` to write to it (`child.stdin`); nothing to read otherwise. */
  stdin?: 'ignore' | 'pipe';
  /** Its output kept for `output()` (the default), or its stderr to this process's and its stdout dropped. */
  stdio?: 'pipe' | 'inherit-stderr';
  /** Stops it once it has run this long. */
  timeoutMs?: number;
}

/** How long a group has to exit after its stop signal before it is killed. */
const graceMs = 3000;

/** What tests started and did not stop yet: `stopProcesses()` stops them, in an afterEach or afterAll. */
const running = new Set<ProcessGroup>();

/** Sends `signal` to the process group `id`; false when no process is left in it. */
function signalGroup(id: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-id, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * `command` as a process of its own, in a process group of its own (so that a stop reaches the processes it starts
 * too), with only PATH, `env` and the run's marker in its environment. Whatever happens to the test, it is stopped
 * by `stopProcesses()`; the run's teardown fails on any process left over.
 */
export function spawnGroup(command: string, args: string[], options: GroupOptions = {}): ProcessGroup {
  const { env = {}, cwd, stdin = 'ignore', stdio = 'pipe', timeoutMs } = options;
  const run = process.env.SVC_TEST_RUN;
  const child = spawn(command, args, {
    cwd,
    detached: true, // its own session and process group, whose id is its pid
    env: { PATH: process.env.PATH, ...env, ...(run ? { [testChildVariable]: run } : {}) },
    stdio: [stdin, stdio === 'pipe' ? 'pipe' : 'ignore', stdio === 'pipe' ? 'pipe' : 'inherit'],
  });
  const written = { all: '', stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.setEncoding('utf8').on('data', (text: string) => {
      written[stream] += text;
      written.all += text;
    });
  }
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      written.all += `${error.message}\n`;
      if (child.pid === undefined) resolve(null); // it never started (no such command): no exit will come
    });
  });
  const closed = new Promise((resolve) => child.once('close', resolve));
  /** Once it exited with nothing left in its group, whose id may then go to another process: never signalled again. */
  let gone = false;
  /** Exited, and what it wrote read. */
  let ended = false;
  // What it wrote last may still be in its pipes when it exits: read to their end, unless a process it started holds
  // them open.
  const exited = exit.then(async (code) => {
    gone = child.pid === undefined || !signalGroup(child.pid, 0);
    await Promise.race([closed, sleep(1000)]);
    ended = true;
    return code;
  });
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => void group.stop(), timeoutMs);
  void exit.then(() => clearTimeout(timer));

  const group: ProcessGroup = {
    child,
    output: (stream) => written[stream ?? 'all'],
    exited,
    async waitForOutput(pattern, options = {}) {
      const { stream, timeoutMs = 20_000 } = typeof options === 'number' ? { timeoutMs: options } : options;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = group.output(stream);
        const match = typeof pattern === 'string' ? (text.includes(pattern) ? [pattern] : null) : pattern.exec(text);
        if (match) return match;
        if (ended) throw new Error(`exited before writing ${pattern}: ${group.output()}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms in: ${group.output()}`);
        await sleep(20);
      }
    },
    async stop(signal = 'SIGTERM') {
      const id = child.pid;
      if (id !== undefined && !gone && signalGroup(id, signal)) {
        const deadline = Date.now() + graceMs;
        while (signalGroup(id, 0) && Date.now() < deadline) await sleep(50);
        signalGroup(id, 'SIGKILL');
      }
      running.delete(group);
      return exited;
    },
  };
  running.add(group);
  return group;
}

/** Stops every process tests started that is still running (with what it started), and waits for them. */
export async function stopProcesses(): Promise<void> {
  await Promise.all([...running].map((group) => group.stop()));
}

export interface ProcessResult {
  /** Its exit code; 1 when a signal ended it (its timeout, say). */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end as `spawnGroup` starts it, with `input` on its stdin. */
export async function runProcess(command: string, args: string[], options: GroupOptions & { input?: string } = {}): Promise<ProcessResult> {
  const { input, ...rest } = options;
  const run = spawnGroup(command, args, { ...rest, stdin: 'pipe' });
  run.child.stdin?.on('error', () => {}); // it may exit without reading its input
  run.child.stdin?.end(input);
  const code = await run.exited;
  await run.stop(); // anything it left running in its group
  return { code: code ?? 1, stdout: run.output('stdout'), stderr: run.output('stderr') };
}

/**
 * An app's entry point run as its own process with only PATH and `env` in its environment: `src/main.ts` under tsx,
 * as `pnpm --filter <app> dev` runs it (the workspace's packages from their sources), or a built `dist/main.js` under
 * plain node, as `pnpm --filter <app> start` runs it.
 */
export function startApp(
  entry: string,
  env: Record<string, string>,
  { stdio = 'pipe', execArgv = [] }: { stdio?: 'pipe' | 'inherit-stderr'; execArgv?: string[] } = {},
): ProcessGroup {
  return spawnGroup(process.execPath, appArguments(entry, execArgv), { env, stdio });
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
    await sleep(50);
  }
}
