import { createHash } from 'node:crypto';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { type AgentDefinition, agentManifest, type Bundle, workspaceManifest } from './manifest.ts';

export interface ManifestIssue {
  /** The file at fault, relative to the repository root. */
  file: string;
  /** Where in the file, e.g. `tools[0].url`; empty for the file as a whole. */
  path: string;
  message: string;
}

export class ManifestError extends Error {
  constructor(readonly issues: ManifestIssue[]) {
    super(issues.map((i) => `${i.file}${i.path ? ` at ${i.path}` : ''}: ${i.message}`).join('\n'));
    this.name = 'ManifestError';
  }
}

const describePath = (path: PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');

function parseFile<S extends z.ZodType>(
  files: Record<string, string>,
  file: string,
  schema: S,
  issues: ManifestIssue[],
): z.infer<S> | undefined {
  const text = files[file];
  if (text === undefined) {
    issues.push({ file, path: '', message: 'missing' });
    return undefined;
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const at = error instanceof YAMLParseError ? ` (line ${error.linePos?.[0]?.line ?? '?'})` : '';
    issues.push({ file, path: '', message: `not valid YAML${at}: ${(error as Error).message.split('\n')[0]}` });
    return undefined;
  }
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) issues.push({ file, path: describePath(issue.path), message: issue.message });
  return undefined;
}

/**
 * Reads and validates a deployment's files. Every problem is reported at once, each naming the file,
 * the path inside it and what was expected.
 */
export function parseBundle(files: Record<string, string>): Bundle {
  const issues: ManifestIssue[] = [];
  const workspace = parseFile(files, 'svc.yaml', workspaceManifest, issues);
  const slugs = [
    ...new Set(
      Object.keys(files)
        .filter((f) => /^agents\/[^/]+\/agent\.yaml$/.test(f))
        .map((f) => f.split('/')[1]!),
    ),
  ].sort();
  const agents: AgentDefinition[] = [];
  for (const slug of slugs) {
    const dir = `agents/${slug}`;
    if (!/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/.test(slug)) {
      issues.push({
        file: `${dir}/agent.yaml`,
        path: '',
        message: 'the folder name is the agent slug: lowercase letters, digits and dashes',
      });
      continue;
    }
    const manifest = parseFile(files, `${dir}/agent.yaml`, agentManifest, issues);
    if (!manifest) continue;
    const instructionsFile = `${dir}/${manifest.instructions}`;
    const instructions = files[instructionsFile];
    if (instructions === undefined)
      issues.push({ file: `${dir}/agent.yaml`, path: 'instructions', message: `${instructionsFile} does not exist` });
    const knowledge = Object.keys(files)
      .filter((f) => f.startsWith(`${dir}/knowledge/`))
      .sort()
      .map((path) => ({ path: path.slice(dir.length + 1), content: files[path] ?? '' }));
    agents.push({ slug, manifest, instructions: instructions ?? '', knowledge });
  }
  if (workspace?.agent && slugs.length === 0 && !issues.length) {
    issues.push({
      file: 'svc.yaml',
      path: 'agent',
      message: 'no agents/<slug>/agent.yaml found; set agent: false for a verification-only workspace',
    });
  }
  if (issues.length > 0 || !workspace) throw new ManifestError(issues);
  return { workspace, agents };
}

/** The content hash of a deployment: the same files give the same hash, whatever their order. */
export function contentHash(files: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const path of Object.keys(files).sort()) hash.update(`${path}\0${files[path]}\0`);
  return `sha256:${hash.digest('hex')}`;
}
