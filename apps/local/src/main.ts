import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, closeServer, listen, localSecretKey } from '@svc/server-kit';
import { createDemoBackend } from './demo-backend.ts';
import { banner } from './banner.ts';
import { readEnv } from './env.ts';
import { type PlatformProcess, startPlatformProcess, stopPlatformProcess } from './processes.ts';

let env;
try {
  env = readEnv();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`svc: ${error.message}\n`);
  process.exit(78);
}

/** The demo backend's token, kept in the data dir so the secrets seeded on first start stay valid. */
function demoBackendToken(dataDir: string): string {
  const file = join(dataDir, 'demo-backend-token');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(24).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

const demoToken = demoBackendToken(env.dataDir);
const demoBackend = createDemoBackend(demoToken);

const childEnv: NodeJS.ProcessEnv = {
  LOG_FORMAT: 'pretty',
  // The demo backend listens on 127.0.0.1; the platform's own ports stay refused to tools all the same.
  SVC_TOOL_ALLOW_PRIVATE_NETWORKS: '1',
  ...process.env,
  SVC_LOCAL_MODE: '1',
  SVC_DATA_DIR: env.dataDir,
  PORT: String(env.port),
  HOST: env.host,
  CORE_PORT: String(env.corePort),
  SVC_PUBLIC_URL: env.publicUrl,
  SVC_DEMO_BACKEND_URL: `http://127.0.0.1:${env.demoBackendPort}`,
  SVC_DEMO_BACKEND_TOKEN: demoToken,
  // Every process gets core's key: core answers only calls with the internal token derived from it.
  SVC_SECRET_KEY: env.secretKey ?? localSecretKey(env.dataDir),
};

const running: PlatformProcess[] = [];
let stopping = false;

/** Stops in reverse start order: the gateway first, core last, so no request finds core gone. */
async function stopAll(exitCode: number): Promise<never> {
  stopping = true;
  for (const proc of [...running].reverse()) await stopPlatformProcess(proc);
  await closeServer(demoBackend).catch(() => {});
  process.exit(exitCode);
}

/** EX_CONFIG: a process refused its configuration, and so does `pnpm start`. */
const configExit = 78;

function start(name: string): PlatformProcess {
  const proc = startPlatformProcess(name, childEnv);
  running.push(proc);
  void proc.exited.then((code) => {
    if (stopping) return;
    if (code === configExit) {
      process.stderr.write(`svc: ${name} refused its configuration (above); stopping\n`);
      void stopAll(configExit);
    } else {
      process.stderr.write(`svc: ${name} exited unexpectedly (code ${code}); stopping\n`);
      void stopAll(1);
    }
  });
  return proc;
}

process.on('SIGINT', () => void (stopping || stopAll(0)));
process.on('SIGTERM', () => void (stopping || stopAll(0)));

try {
  await listen(demoBackend, env.demoBackendPort, '127.0.0.1', 'DEMO_BACKEND_PORT');
  await start('core').ready;
  const apps = ['gateway', 'eval-runner', ...(process.env.GITHUB_APP_ID ? ['github-app'] : [])];
  await Promise.all(apps.map((name) => start(name).ready));
} catch (error) {
  if (!stopping) {
    process.stderr.write(`svc: ${(error as Error).message}\n`);
    await stopAll(error instanceof ConfigError ? configExit : 1);
  }
  // A process failed and stopAll is stopping the rest and exiting: the platform never became ready.
  await new Promise<never>(() => {});
}

const tokenFile = join(env.dataDir, 'dev-token');
const token = await readFile(tokenFile, 'utf8').then(
  (text) => text.trim(),
  () => undefined,
);
process.stdout.write(banner(env, token, tokenFile));
