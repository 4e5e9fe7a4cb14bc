import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { flagsDigestCap } from '@svc/domain';
import type { Command } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError } from '../errors.ts';
import { flagsDigest, openFlags } from '../flags-digest.ts';
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

/**
 * How many open flags with a note a digest the server rendered counts (its first second-level heading, which comes
 * before any flag's text), and how many of them it shows.
 */
function countsOf(digest: Uint8Array): { shown: number; total: number } {
  const heading = /^## ([\d,]+) open flags?\b/m.exec(new TextDecoder().decode(digest));
  const total = heading ? Number(heading[1]!.replaceAll(',', '')) : 0;
  return { shown: Math.min(total, flagsDigestCap), total };
}

const flagsCount = (n: number) => `${n} open flag${n === 1 ? '' : 's'}`;

export function registerFlags(program: Command): void {
  program
    .command('flags')
    .description(`print the newest ${flagsDigestCap} open flags as one markdown digest for a coding agent, instructions at the top`)
    .option('--all', 'every open flag with a note, not only the newest')
    .option('--agent <slug>', "only this agent's flags")
    .option('--save [file]', 'write the digest to a file instead (default: flags.md in the current folder)')
    .action(async (opts: { save?: string | true; all?: boolean; agent?: string }, command: Command) => {
      const options = globalOptions(command);
      const { token } = await requireCredential(options.baseUrl);
      const workspace = await resolveWorkspace(command);
      const api = new Api(options.baseUrl, token);

      if (opts.save === undefined) {
        if (options.json) return printJson({ flags: await openFlags(api, workspace, opts.agent) });
        // Written as the server sent it, so `svc flags` and `GET .../flags.md` are the same bytes.
        return void process.stdout.write((await flagsDigest(api, workspace, opts)).bytes);
      }
      const file = resolve(invokedFrom(), opts.save === true ? 'flags.md' : opts.save);
      const digest = await flagsDigest(api, workspace, opts);
      await save(file, digest.bytes);
      const { shown, total } = digest.flags === undefined ? countsOf(digest.bytes) : { shown: digest.flags, total: digest.flags };
      if (options.json) return printJson({ file, workspace, flags: shown, open: total });
      const what =
        total === 0
          ? 'no open flags with a note'
          : shown < total
            ? `the newest ${shown} of ${flagsCount(total)}; svc flags --all for every one`
            : flagsCount(total);
      process.stdout.write(`Saved the flags digest of ${workspace} (${what}) to ${file}.\n`);
    });
}
