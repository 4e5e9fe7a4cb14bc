import { createWorkspaceInput, type Workspace } from '@svc/domain';
import type { Membership } from '../store/store.ts';
import { authedProcedure, router, workspaceProcedure } from '../trpc.ts';

const toWorkspace = (m: Membership): Workspace => ({
  slug: m.slug,
  name: m.name,
  role: m.role,
  created_at: m.createdAt,
});

export const workspacesRouter = router({
  list: authedProcedure.query(async ({ ctx }) => ({
    workspaces: (await ctx.services.workspaces.list(ctx.principal.user.id)).map(toWorkspace),
  })),

  get: workspaceProcedure.query(({ ctx }) => toWorkspace(ctx.membership)),

  create: authedProcedure
    .input(createWorkspaceInput)
    .mutation(async ({ ctx, input }) => toWorkspace(await ctx.services.workspaces.create(ctx.principal.user.id, input))),
});
