import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Stored tokens, one per server, like gh's hosts file: `{"hosts":{"<base url>":{"token":"svc_..."}}}`. */
interface CredentialsFile {
  hosts: Record<string, { token: string }>;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(configHome, 'svc', 'credentials.json');
}

async function readCredentials(path: string): Promise<CredentialsFile> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CredentialsFile>;
    return { hosts: parsed.hosts ?? {} };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { hosts: {} };
    throw error;
  }
}

export async function readStoredToken(path: string, baseUrl: string): Promise<string | undefined> {
  return (await readCredentials(path)).hosts[baseUrl]?.token;
}

/** Whether anyone but the owner can read the file (it should be 0600). */
export async function isExposed(path: string): Promise<boolean> {
  return ((await stat(path)).mode & 0o077) !== 0;
}

export async function storeToken(path: string, baseUrl: string, token: string | undefined): Promise<void> {
  const credentials = await readCredentials(path);
  if (token) credentials.hosts[baseUrl] = { token };
  else delete credentials.hosts[baseUrl];
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}
