import { type Bundle, contentHash, ManifestError, parseBundle, secretsOfAgent } from '@svc/agent-runtime';
import { DomainError, isBundleFile, type PageQuery, type PushInput, type VersionView } from '@svc/domain';
import { z } from 'zod';
import type { AgentVersion } from './store.ts';
import type { Membership, Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { nextCursorOf, pageRequest } from '../platform/pages.ts';
import type { Keyring } from '../platform/secrets.ts';

export const liveEnvironment = 'live';

/** Agent slugs of a version, from its file paths. */
const agentsOf = (files: Record<string, string>) =>
  Object.keys(files)
    .flatMap((path) => /^agents\/([^/]+)\/agent\.yaml$/.exec(path)?.[1] ?? [])
    .sort();

/** Deployed versions, environments and their secrets. */
export function createDeploymentService(store: Store, keyring: Keyring, clock: Clock) {
  async function view(version: AgentVersion): Promise<VersionView> {
    const author = await store.users.findById(version.authorId);
    return {
      id: version.id,
      number: version.number,
      content_hash: version.contentHash,
      git_commit: version.gitCommit,
      git_branch: version.gitBranch,
      author: author?.email ?? 'unknown',
      created_at: version.createdAt,
      agents: agentsOf(version.files),
    };
  }

  /** The secrets the bundle's agents use that `environment` lacks: a deploy warns of them. */
  async function missingSecrets(workspaceId: string, environment: string, bundle: Bundle): Promise<string[]> {
    const present = new Set((await store.secrets.list(workspaceId, environment)).map((s) => s.name));
    return [...new Set(bundle.agents.flatMap((a) => secretsOfAgent(a.manifest)))].filter((name) => !present.has(name)).sort();
  }

  /** Secrets belong to an environment that exists: one set for a misspelt name would never be used. */
  async function requireEnvironment(workspaceId: string, environment: string): Promise<void> {
    if (!(await store.environments.get(workspaceId, environment))) {
      throw new DomainError('environment_not_found', `no environment "${environment}": deploy to it first (svc push --env ${environment})`);
    }
  }

  return {
    view,

    /**
     * `svc push`: validates the manifest files and deploys them to an environment. Versions are immutable:
     * the same content deploys the version it already is.
     */
    async push(workspace: Membership, authorId: string, input: PushInput) {
      const files = Object.fromEntries(Object.entries(input.files).filter(([path]) => isBundleFile(path)));
      let bundle;
      try {
        bundle = parseBundle(files);
      } catch (error) {
        if (!(error instanceof ManifestError)) throw error;
        throw new DomainError('invalid_manifest', error.message, { details: { issues: error.issues } });
      }
      if (bundle.workspace.workspace !== workspace.slug) {
        throw new DomainError(
          'workspace_mismatch',
          `svc.yaml names workspace "${bundle.workspace.workspace}", but this push is to "${workspace.slug}"`,
        );
      }
      const at = clock().toISOString();
      // The store finds or makes the version in one step: identical pushes at once deploy one version.
      const { version, created } = await store.versions.create({
        id: newId('ver'),
        workspaceId: workspace.id,
        contentHash: contentHash(files),
        files,
        gitCommit: input.git?.commit ?? null,
        gitBranch: input.git?.branch ?? null,
        authorId,
        createdAt: at,
      });
      await store.environments.deploy(workspace.id, input.environment, version.id, at);
      const missing_secrets = await missingSecrets(workspace.id, input.environment, bundle);
      return { environment: input.environment, version: await view(version), created, missing_secrets };
    },

    /** Promotes the version of an environment to live. */
    async publish(workspace: Membership, from: string) {
      const source = await store.environments.get(workspace.id, from);
      if (!source?.version) throw new DomainError('environment_not_found', `no environment "${from}" with a deployed version`);
      await store.environments.deploy(workspace.id, liveEnvironment, source.version.id, clock().toISOString());
      const missing_secrets = await missingSecrets(workspace.id, liveEnvironment, parseBundle(source.version.files));
      return { environment: liveEnvironment, version: await view(source.version), created: false, missing_secrets };
    },

    /** The workspace's versions, a page at a time, newest first. */
    async versions(workspaceId: string, query: PageQuery) {
      const page = await store.versions.list(workspaceId, pageRequest(query, z.number().int().positive()));
      return {
        versions: await Promise.all(page.items.map(view)),
        next_cursor: nextCursorOf(page, (version) => ({ key: version.number, id: version.id })),
      };
    },

    async environments(workspaceId: string) {
      const list = await store.environments.list(workspaceId);
      return {
        environments: await Promise.all(
          list.map(async (env) => ({ name: env.name, version: env.version ? await view(env.version) : null, updated_at: env.updatedAt })),
        ),
      };
    },

    async setSecret(workspaceId: string, environment: string, name: string, value: string): Promise<void> {
      await requireEnvironment(workspaceId, environment);
      await store.secrets.put(workspaceId, environment, name, keyring.encrypt(value), clock().toISOString());
    },

    async listSecrets(workspaceId: string, environment: string) {
      await requireEnvironment(workspaceId, environment);
      const secrets = await store.secrets.list(workspaceId, environment);
      return { secrets: secrets.map((s) => ({ name: s.name, updated_at: s.updatedAt })) };
    },

    /** The environment's secrets in the clear, for tool calls only. */
    async secretValues(workspaceId: string, environment: string): Promise<Record<string, string>> {
      const sealed = await store.secrets.sealed(workspaceId, environment);
      return Object.fromEntries(sealed.map((s) => [s.name, keyring.decrypt(s.valueSealed)]));
    },
  };
}

export type DeploymentService = ReturnType<typeof createDeploymentService>;
