import type { Command } from 'commander';
import { credentialsPath, isExposed, readStoredToken } from './credentials.ts';
import { CliError, exitCodes } from './errors.ts';

export interface GlobalOptions {
  baseUrl: string;
  json: boolean;
}

export interface Credential {
  token: string;
  /** Where the token came from, as `svc whoami` reports it. */
  source: string;
}

export function globalOptions(command: Command): GlobalOptions {
  // Commander fills --base-url from SVC_BASE_URL, then from its default.
  const opts = command.optsWithGlobals<{ baseUrl: string; json?: boolean }>();
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) {
    throw new CliError(`--base-url must be an http(s) URL, got "${baseUrl}"`, exitCodes.usage);
  }
  return { baseUrl, json: opts.json ?? false };
}

/** The token to use: SVC_TOKEN wins over the stored one. */
export async function resolveCredential(baseUrl: string): Promise<Credential | undefined> {
  const fromEnv = process.env.SVC_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'SVC_TOKEN' };
  const path = credentialsPath();
  const stored = await readStoredToken(path, baseUrl);
  if (!stored) return undefined;
  if (await isExposed(path)) {
    process.stderr.write(`svc: warning: ${path} is readable by others; run chmod 600 on it\n`);
  }
  return { token: stored, source: path };
}

export async function requireCredential(baseUrl: string): Promise<Credential> {
  const credential = await resolveCredential(baseUrl);
  if (!credential) {
    throw new CliError(`not signed in to ${baseUrl}: run \`svc login\` or set SVC_TOKEN`, exitCodes.auth, 'unauthorized');
  }
  return credential;
}
