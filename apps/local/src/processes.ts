import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { isIPv6 } from 'node:net';
import { fileURLToPath } from 'node:url';

const tsx = import.meta.resolve('tsx');
const appsDir = fileURLToPath(new URL('../../', import.meta.url));

export interface PlatformProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** Starts one app's entry point (`apps/<name>/src/main.ts`) as its own process. */
export function startApp(name: string, env: NodeJS.ProcessEnv): PlatformProcess {
  const child = spawn(process.execPath, ['--import', tsx, `${appsDir}${name}/src/main.ts`], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { name, child, exited };
}

/** Asks a process to stop, and kills it if it has not within the grace period. */
export async function stopApp(proc: PlatformProcess, graceMs = 10_000): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** Resolves once `url` answers 200, rejects when the process exits first or time runs out. */
export async function waitUntilHealthy(url: string, proc: PlatformProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${proc.name} exited during start-up`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${proc.name} did not become healthy at ${url} within ${timeoutMs / 1000} s`);
}

/** An http URL that reaches a server listening on `host` from this machine (a wildcard address through loopback). */
export function localUrl(host: string, port: number): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return isIPv6(host) ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
