import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { appArguments } from '@svc/server-kit';

const appsDir = fileURLToPath(new URL('../../', import.meta.url));

export interface PlatformProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves when the app says it has started (it is listening); rejects if it exits first. */
  ready: Promise<void>;
}

/**
 * Starts one app of the platform as its own process, from its sources (`apps/<name>/src/main.ts`, the workspace's
 * packages included), with an IPC channel for `ready`.
 */
export function startPlatformProcess(name: string, env: NodeJS.ProcessEnv): PlatformProcess {
  const child = spawn(process.execPath, appArguments(`${appsDir}${name}/src/main.ts`), {
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
export async function stopPlatformProcess(proc: PlatformProcess, graceMs = 10_000): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}
