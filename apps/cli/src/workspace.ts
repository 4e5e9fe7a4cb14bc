import type { Command } from 'commander';
import { CliError, exitCodes } from './errors.ts';

/** The workspace a command acts on: `--workspace`, else SVC_WORKSPACE. */
export function resolveWorkspace(command: Command): string {
  const { workspace } = command.optsWithGlobals<{ workspace?: string }>();
  const slug = workspace ?? process.env.SVC_WORKSPACE;
  if (!slug) throw new CliError('no workspace: pass --workspace <slug> or set SVC_WORKSPACE', exitCodes.usage);
  return slug;
}
