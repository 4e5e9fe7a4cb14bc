import { BinaryFileError, readBundleFiles } from '@svc/domain/bundle-files';
import { environmentForBranch, type VersionView } from '@svc/domain';
import type { Api } from './api.ts';
import { CliError, exitCodes } from './errors.ts';
import { findRepoRoot, gitState } from './repo.ts';

export interface Deployment {
  environment: string;
  version: VersionView;
  created: boolean;
  missing_secrets: string[];
}

/**
 * Deploys the repository's agents (the working tree, as git sees it) to `environment`, else to the current branch's
 * environment: what `svc push` and the MCP server's `push` tool do. `dirty` says the files differ from every commit.
 */
export async function pushWorkingTree(api: Api, base: string, environment?: string): Promise<Deployment & { dirty: boolean }> {
  const root = findRepoRoot();
  if (!root) throw new CliError('no svc.yaml here or in any parent folder', exitCodes.usage, 'no_manifest');
  const { paths, dirty, ...git } = await gitState(root);
  const files = await readBundleFiles(root, paths).catch((error: unknown) => {
    throw error instanceof BinaryFileError ? new CliError(error.message, exitCodes.usage, 'binary_file') : error;
  });
  const deployed = await api.request<Deployment>('POST', `${base}/deployments`, {
    environment: environment ?? environmentForBranch(git.branch),
    files,
    git,
  });
  return { ...deployed, dirty };
}
