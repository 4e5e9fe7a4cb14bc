import type { Whoami } from '@svc/domain';
import type { Command } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { printJson } from '../output.ts';

export function registerWhoami(program: Command): void {
  program
    .command('whoami')
    .description('show who you are signed in as, and which token is in use')
    .action(async (_opts, command: Command) => {
      const options = globalOptions(command);
      const credential = await requireCredential(options.baseUrl);
      const me = await new Api(options.baseUrl, credential.token).request<Whoami>('GET', '/cli/whoami');
      if (options.json) return printJson({ ...me, server: options.baseUrl, token_source: credential.source });
      process.stdout.write(
        [
          `Signed in to ${options.baseUrl} as ${me.user.email}`,
          `Token: ${me.token.name} (${me.token.id}), from ${credential.source}`,
          '',
        ].join('\n'),
      );
    });
}
