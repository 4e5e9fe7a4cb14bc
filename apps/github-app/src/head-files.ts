import { type Octokit, repoOf } from './github.ts';

/** The most files a preview reads: a bundle is a manifest and a few agents' folders. */
const maxFiles = 500;
/** Core's limit for one file. */
const maxFileBytes = 1_000_000;

/** Why the head's files could not be deployed; its message goes into the pull request's comment. */
export class HeadFilesError extends Error {}

const isBundlePath = (path: string) => path === 'svc.yaml' || path.startsWith('agents/');

/**
 * `svc.yaml` and every file under `agents/` at a commit, as `svc push` sends them: read through the git trees API
 * (one recursive tree) and a blob per file.
 */
export async function readHeadFiles(octokit: Octokit, repository: string, sha: string): Promise<Record<string, string>> {
  const { owner, repo } = repoOf(repository);
  const { data: tree } = await octokit.rest.git.getTree({ owner, repo, tree_sha: sha, recursive: 'true' });
  if (tree.truncated) throw new HeadFilesError(`the repository's tree at ${sha.slice(0, 7)} is too large for GitHub to list in one answer`);
  const blobs = tree.tree.filter((entry) => entry.type === 'blob' && entry.path && entry.sha && isBundlePath(entry.path));
  if (!blobs.some((entry) => entry.path === 'svc.yaml'))
    throw new HeadFilesError(`svc.yaml: not found at the root of ${repository} at ${sha.slice(0, 7)}`);
  if (blobs.length > maxFiles)
    throw new HeadFilesError(`svc.yaml and agents/ hold ${blobs.length} files; a deployment takes at most ${maxFiles}`);
  const tooLarge = blobs.find((entry) => (entry.size ?? 0) > maxFileBytes);
  if (tooLarge) throw new HeadFilesError(`${tooLarge.path}: larger than ${maxFileBytes} bytes`);
  const files: Record<string, string> = {};
  for (const entry of blobs) {
    const { data: blob } = await octokit.rest.git.getBlob({ owner, repo, file_sha: entry.sha! });
    files[entry.path!] = Buffer.from(blob.content, blob.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
  }
  return files;
}
