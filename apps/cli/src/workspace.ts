import type { Command } from 'commander';
import { CliError, exitCodes } from './errors.ts';
import { findRepoRoot, manifestWorkspace } from './repo.ts';

/** The workspace a command acts on: `--workspace`, else SVC_WORKSPACE, else the nearest svc.yaml upwards. */
export async function resolveWorkspace(command: Command): Promise<string> {
  const { workspace } = command.optsWithGlobals<{ workspace?: string }>();
  const root = findRepoRoot();
  const slug = workspace ?? process.env.SVC_WORKSPACE ?? (root ? await manifestWorkspace(root) : undefined);
  if (!slug)
    throw new CliError(
      'no workspace: pass --workspace <slug>, set SVC_WORKSPACE, or run inside a repository with svc.yaml',
      exitCodes.usage,
    );
  return slug;
}
