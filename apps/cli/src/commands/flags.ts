import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inFlagsDigest } from '@svc/digest';
import type { FlagView } from '@svc/domain';
import type { Command } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError } from '../errors.ts';
import { printJson } from '../output.ts';
import { invokedFrom } from '../repo.ts';
import { resolveWorkspace } from '../workspace.ts';

const writeFailures: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EROFS: 'the file system is read-only',
};

async function save(file: string, digest: Uint8Array): Promise<void> {
  try {
    await writeFile(file, digest);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new CliError(`cannot write ${file}: ${writeFailures[code] ?? (error as Error).message}`);
  }
}

export function registerFlags(program: Command): void {
  program
    .command('flags')
    .description('print the open flags as one markdown digest for a coding agent, instructions at the top')
    .option('--save [file]', 'write the digest to a file instead (default: flags.md in the current folder)')
    .action(async (opts: { save?: string | true }, command: Command) => {
      const options = globalOptions(command);
      const { token } = await requireCredential(options.baseUrl);
      const workspace = await resolveWorkspace(command);
      const api = new Api(options.baseUrl, token);
      const base = `/api/developer/v1/${encodeURIComponent(workspace)}`;
      const list = () => api.request<{ flags: FlagView[] }>('GET', `${base}/flags`);
      const digest = () => api.bytes(`${base}/flags.md`, 'text/markdown');

      if (opts.save === undefined) {
        if (options.json) return printJson(await list());
        // Written as the server sent it, so `svc flags` and `GET .../flags.md` are the same bytes.
        return void process.stdout.write(await digest());
      }
      const file = resolve(invokedFrom(), opts.save === true ? 'flags.md' : opts.save);
      const [bytes, { flags }] = await Promise.all([digest(), list()]);
      await save(file, bytes);
      const count = flags.filter(inFlagsDigest).length;
      if (options.json) return printJson({ file, workspace, flags: count });
      const what = count === 0 ? 'no open flags with a note' : `${count} open flag${count === 1 ? '' : 's'}`;
      process.stdout.write(`Saved the flags digest of ${workspace} (${what}) to ${file}.\n`);
    });
}
