import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// Local mode runs every app from its sources, the workspace's packages included (their `development` export).
const fromSources = ['--conditions=development', '--import', import.meta.resolve('tsx')];
const appsDir = fileURLToPath(new URL('../../', import.meta.url));

export interface PlatformProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves when the app says it has started (it is listening); rejects if it exits first. */
  ready: Promise<void>;
}

/** Starts one app's entry point (`apps/<name>/src/main.ts`) as its own process, with an IPC channel for `ready`. */
export function startApp(name: string, env: NodeJS.ProcessEnv): PlatformProcess {
  const child = spawn(process.execPath, [...fromSources, `${appsDir}${name}/src/main.ts`], {
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { ready?: boolean }) => message.ready && resolve());
    void exited.then((code) => reject(new Error(`${name} exited during start-up (code ${code})`)));
  });
  ready.catch(() => {}); // whoever awaits it sees the failure; the exit itself is handled by the caller
  return { name, child, exited, ready };
}

/** Asks a process to stop, and kills it if it has not within the grace period. */
export async function stopApp(proc: PlatformProcess, graceMs = 10_000): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}
