import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeviceAuthorization, Whoami } from '@svc/domain';
import type { Command } from 'commander';
import open from 'open';
import ora from 'ora';
import { Api } from '../api.ts';
import { globalOptions, resolveCredential } from '../context.ts';
import { credentialsPath, storeToken } from '../credentials.ts';
import { CliError, exitCodes } from '../errors.ts';
import { printJson, stderrColors } from '../output.ts';

interface TokenAnswer {
  access_token?: string;
  error?: string;
  error_description?: string;
  interval?: number;
}

/** Never over SSH, in CI, or without a terminal: there is no browser there to open, or no one to see it. */
function canOpenBrowser(noBrowser: boolean): boolean {
  const env = process.env;
  return (
    !noBrowser && !env.CI && !env.SSH_CONNECTION && !env.SSH_TTY && !env.SSH_CLIENT && Boolean(process.stdin.isTTY && process.stdout.isTTY)
  );
}

/** Offers to open the browser on Enter, while polling goes on. */
function offerBrowser(url: string): () => void {
  process.stderr.write(`Press Enter to open ${new URL(url).host} in your browser...\n`);
  const rl = createInterface({ input: process.stdin });
  rl.once('line', () => {
    void open(url).catch(() => process.stderr.write(`Could not open a browser; open ${url} yourself.\n`));
    rl.close();
  });
  return () => rl.close();
}

async function pollForToken(baseUrl: string, started: DeviceAuthorization): Promise<string> {
  let interval = started.interval;
  const deadline = Date.now() + started.expires_in * 1000;
  const spinner = ora({
    text: 'Waiting for approval in the browser...',
    stream: process.stderr,
    isEnabled: Boolean(process.stderr.isTTY),
  }).start();
  try {
    while (Date.now() < deadline) {
      await sleep(interval * 1000);
      const response = await fetch(`${baseUrl}/cli/device_authorizations/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_code: started.device_code }),
      }).catch(() => undefined);
      if (!response) continue; // a network blip: try again at the next interval
      const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
      if (answer.access_token) {
        spinner.stopAndPersist({ symbol: stderrColors.green('✔'), text: 'Approved.' });
        return answer.access_token;
      }
      if (answer.error === 'authorization_pending') continue;
      if (answer.error === 'slow_down') {
        interval = answer.interval ?? interval + 5;
        continue;
      }
      if (answer.error === 'access_denied') throw new CliError('the sign-in was denied in the browser');
      if (answer.error === 'expired_token') break;
      throw new CliError(answer.error_description ?? `the server answered ${response.status}`);
    }
    throw new CliError('the code expired before it was approved; run `svc login` again');
  } catch (error) {
    spinner.stopAndPersist({ symbol: stderrColors.red('✖'), text: 'Not signed in.' });
    throw error;
  }
}

export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('sign in from this terminal by approving a code in a browser (RFC 8628 device flow)')
    .option('--email <address>', 'mail a sign-in link to this address instead of opening a browser here')
    .option('--no-browser', 'do not offer to open a browser')
    .action(async (opts: { email?: string; browser: boolean }, command: Command) => {
      const { baseUrl, json } = globalOptions(command);
      const api = new Api(baseUrl, undefined);
      const started = await api.request<DeviceAuthorization>('POST', '/cli/device_authorizations', {
        client_name: 'svc CLI',
        hostname: hostname(),
        ...(opts.email ? { email: opts.email } : {}),
      });
      process.stderr.write(`! Your one-time code: ${started.user_code}\n`);
      if (started.email_sent) {
        process.stderr.write(`We mailed a sign-in link to ${opts.email}. Open it, check that the code matches, and approve.\n`);
      } else {
        process.stderr.write(`Open ${started.verification_uri_complete} in a browser, check that the code matches, and approve.\n`);
      }
      const closeOffer = !started.email_sent && canOpenBrowser(!opts.browser) ? offerBrowser(started.verification_uri_complete) : () => {};
      let token: string;
      try {
        token = await pollForToken(baseUrl, started);
      } finally {
        closeOffer();
      }
      const path = credentialsPath();
      await storeToken(path, baseUrl, token);
      const me = await new Api(baseUrl, token).request<Whoami>('GET', '/cli/whoami');
      if (json) {
        process.stdout.write(`${JSON.stringify({ server: baseUrl, user: me.user, token: me.token, stored_in: path })}\n`);
      } else {
        process.stdout.write(`Signed in to ${baseUrl} as ${me.user.email}. The token is stored in ${path}.\n`);
      }
      if (process.env.SVC_TOKEN) process.stderr.write('Note: SVC_TOKEN is set and wins over the stored token until you unset it.\n');
    });

  program
    .command('logout')
    .description('revoke the stored token on the server, then delete it here')
    .action(async (_opts, command: Command) => {
      const { baseUrl, json } = globalOptions(command);
      const path = credentialsPath();
      const credential = await resolveCredential(baseUrl);
      if (!credential || credential.source !== path) {
        if (process.env.SVC_TOKEN) throw new CliError('SVC_TOKEN is set; unset it to sign out (it is not stored by svc)', exitCodes.usage);
        // Signing out is done when there is nothing to sign out of, as `gh auth logout` and `docker logout` agree.
        if (json) return printJson({ server: baseUrl, signed_out: false, reason: 'not_signed_in' });
        return void process.stdout.write(`Not signed in to ${baseUrl}; nothing to do.\n`);
      }
      const api = new Api(baseUrl, credential.token);
      try {
        const me = await api.request<Whoami>('GET', '/cli/whoami');
        await api.request('DELETE', `/cli/tokens/${encodeURIComponent(me.token.id)}`);
      } catch (error) {
        // A token the server no longer accepts is as good as revoked; anything else keeps the file.
        if (!(error instanceof CliError && error.exitCode === exitCodes.auth)) throw error;
      }
      await storeToken(path, baseUrl, undefined);
      if (json) return printJson({ server: baseUrl, signed_out: true });
      process.stdout.write(`Signed out of ${baseUrl}; the token is revoked and deleted.\n`);
    });
}
