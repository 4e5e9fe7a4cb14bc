import { z } from 'zod';
import { displayText } from './display-text.ts';

export const roles = ['owner', 'developer', 'supervisor'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

export const workspaceSlug = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/,
    '3-40 characters of lowercase letters, digits and dashes, starting and ending with a letter or digit',
  )
  .meta({ example: 'acme-support' });

export const createWorkspaceInput = z
  .object({
    slug: workspaceSlug,
    // Trimmed before its checks: a name of spaces alone is empty, which only a pattern can tell a client.
    name: displayText(z.string().trim().min(1).max(100)).regex(/\S/, 'must not be blank').optional(),
  })
  .meta({ id: 'CreateWorkspaceRequest' });
export type CreateWorkspaceInput = z.infer<typeof createWorkspaceInput>;

export const workspace = z
  .object({
    slug: workspaceSlug,
    name: z.string().nullable(),
    role,
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof workspace>;

export const workspaceList = z.object({ workspaces: z.array(workspace) }).meta({ id: 'WorkspaceList' });
export type WorkspaceList = z.infer<typeof workspaceList>;

/** Input of every workspace-scoped core procedure, and the `:workspace` path parameter. */
export const workspaceScope = z.object({ workspace: z.string().max(100) });
export const workspacePath = workspaceScope;
