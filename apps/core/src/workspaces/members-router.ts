import { changeRoleInput, inviteMemberInput } from '@svc/domain';
import { z } from 'zod';
import { memberProcedure, publicProcedure, router, sessionProcedure } from '../platform/trpc.ts';

const link = z.object({ token: z.string().max(200) });

export const membersRouter = router({
  list: memberProcedure.query(({ ctx }) => ctx.services.members.list(ctx.membership)),

  events: memberProcedure.query(async ({ ctx }) => ({ events: await ctx.services.members.events(ctx.membership) })),

  invite: memberProcedure
    .input(inviteMemberInput)
    .mutation(({ ctx, input }) => ctx.services.members.invite(ctx.membership, ctx.user, { email: input.email, role: input.role })),

  revokeInvitation: memberProcedure.input(z.object({ id: z.string().max(100) })).mutation(async ({ ctx, input }) => {
    await ctx.services.members.revokeInvitation(ctx.membership, ctx.user, input.id);
    return { revoked: true as const };
  }),

  changeRole: memberProcedure
    .input(changeRoleInput.extend({ user_id: z.string().max(100) }))
    .mutation(({ ctx, input }) => ctx.services.members.changeRole(ctx.membership, ctx.user, input.user_id, input.role)),

  remove: memberProcedure.input(z.object({ user_id: z.string().max(100) })).mutation(async ({ ctx, input }) => {
    await ctx.services.members.remove(ctx.membership, ctx.user, input.user_id);
    return { removed: true as const };
  }),
});

/** The invitation link's pages: viewing changes nothing; signing in and accepting are POSTs of a person. */
export const invitationsRouter = router({
  view: publicProcedure.input(link).query(({ ctx, input }) => ctx.services.members.view(input.token)),

  signIn: publicProcedure.input(link).mutation(({ ctx, input }) => ctx.services.members.signIn(input.token)),

  accept: sessionProcedure.input(link).mutation(({ ctx, input }) => ctx.services.members.accept(input.token, ctx.consoleSession.user)),
});
