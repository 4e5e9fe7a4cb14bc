import { createWorkspaceInput, type Workspace } from '@svc/domain';
import type { Membership } from '../store.ts';
import { authedProcedure, router, userProcedure, workspaceProcedure } from '../platform/trpc.ts';

const toWorkspace = (m: Membership): Workspace => ({
  slug: m.slug,
  name: m.name,
  role: m.role,
  created_at: m.createdAt,
});

export const workspacesRouter = router({
  // A console session lists them too: the console's workspace switcher shows every workspace of its user.
  list: userProcedure.query(async ({ ctx }) => ({
    workspaces: (await ctx.services.workspaces.list(ctx.user.id)).map(toWorkspace),
  })),

  get: workspaceProcedure.query(({ ctx }) => toWorkspace(ctx.membership)),

  create: authedProcedure
    .input(createWorkspaceInput)
    .mutation(async ({ ctx, input }) => toWorkspace(await ctx.services.workspaces.create(ctx.principal.user.id, input))),
});
