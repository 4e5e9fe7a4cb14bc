import type { SenderView } from '@svc/domain';
import type { Command } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError, exitCodes } from '../errors.ts';
import { printJson } from '../output.ts';
import { readStdin } from '../stdin.ts';
import { resolveWorkspace } from '../workspace.ts';

async function secretFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('a secret given as "-" is read from stdin; pipe it in', exitCodes.usage);
  return (await readStdin()).trim();
}

/** Secret options take the value itself or "-" to read it from stdin (kept out of shell history). */
async function secrets(values: Record<string, string | undefined>): Promise<Record<string, string>> {
  const fromStdin = Object.entries(values).filter(([, value]) => value === '-');
  if (fromStdin.length > 1) throw new CliError('only one secret can be read from stdin', exitCodes.usage);
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) resolved[name] = value === '-' ? await secretFromStdin() : value;
  }
  return resolved;
}

function printSender(sender: SenderView, workspace: string): void {
  const lines = [`Sender of ${workspace}: ${sender.kind}`];
  for (const [name, value] of Object.entries(sender.config)) lines.push(`  ${name}: ${value}`);
  for (const name of sender.secrets_set) lines.push(`  ${name}: (set, hidden)`);
  if (sender.webhook_url) lines.push(`  status webhook URL: ${sender.webhook_url}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function context(command: Command) {
  const options = globalOptions(command);
  const { token } = await requireCredential(options.baseUrl);
  const workspace = await resolveWorkspace(command);
  return { api: new Api(options.baseUrl, token), options, workspace, path: `/api/developer/v1/${encodeURIComponent(workspace)}/sender` };
}

async function put(command: Command, body: Record<string, string>): Promise<void> {
  const { api, options, workspace, path } = await context(command);
  const sender = await api.request<SenderView>('PUT', path, body);
  if (options.json) return printJson(sender);
  printSender(sender, workspace);
}

export function registerSender(program: Command): void {
  const sender = program.command('sender').description("the workspace's messaging-app sender for phone verification");

  sender
    .command('show')
    .description('show the sender, without its secrets')
    .action(async (_opts, command: Command) => {
      const { api, options, workspace, path } = await context(command);
      const view = await api.request<SenderView>('GET', path);
      if (options.json) return printJson(view);
      printSender(view, workspace);
    });

  const set = sender.command('set').description('set the sender (owner or developer); secrets are encrypted at rest');

  set
    .command('whatsapp_cloud')
    .description('WhatsApp Cloud API, with an AUTHENTICATION template')
    .requiredOption('--phone-number-id <id>', 'the WhatsApp phone number ID')
    .requiredOption('--access-token <token|->', 'a system-user access token, or - to read it from stdin')
    .requiredOption('--template <name>', 'the AUTHENTICATION template with a copy-code button')
    .option('--language <code>', 'the template language', 'en_US')
    .option('--app-secret <secret|->', 'the Meta app secret, to check status webhooks')
    .option('--webhook-verify-token <token|->', "the token Meta's webhook set-up must send, or - to read it from stdin")
    .action(async (opts, command: Command) => {
      const hidden = await secrets({
        access_token: opts.accessToken,
        app_secret: opts.appSecret,
        webhook_verify_token: opts.webhookVerifyToken,
      });
      await put(command, {
        kind: 'whatsapp_cloud',
        phone_number_id: opts.phoneNumberId,
        template: opts.template,
        language: opts.language,
        ...hidden,
      });
    });

  set
    .command('twilio_whatsapp')
    .description("Twilio's WhatsApp sender, with a content template whose {{1}} is the code")
    .requiredOption('--account-sid <sid>', 'the Account SID (AC...)')
    .requiredOption('--auth-token <token|->', 'the auth token, or - to read it from stdin')
    .requiredOption('--from <sender>', 'the WhatsApp sender, as whatsapp:+<number>')
    .requiredOption('--content-sid <sid>', 'the Content SID (HX...)')
    .action(async (opts, command: Command) => {
      const hidden = await secrets({ auth_token: opts.authToken });
      await put(command, {
        kind: 'twilio_whatsapp',
        account_sid: opts.accountSid,
        from: opts.from,
        content_sid: opts.contentSid,
        ...hidden,
      });
    });

  set
    .command('dev')
    .description('local mode only: keep messages in the dev outbox instead of sending them')
    .action(async (_opts, command: Command) => put(command, { kind: 'dev' }));
}
