import { createFlagInput, flagListQuery, updateFlagInput } from '@svc/domain';
import { z } from 'zod';
import { memberProcedure, router } from '../trpc.ts';

const flagId = z.object({ id: z.string().max(100) });

/** Flags of agent replies: every member reads them; owners, developers and supervisors flag, edit and remove. */
export const flagsRouter = router({
  list: memberProcedure.input(flagListQuery).query(({ ctx, input }) => ctx.services.flags.list(ctx.membership, input.status)),

  get: memberProcedure.input(flagId).query(({ ctx, input }) => ctx.services.flags.get(ctx.membership, input.id)),

  ofChat: memberProcedure
    .input(z.object({ chat_id: z.string().max(100) }))
    .query(({ ctx, input }) => ctx.services.flags.ofChat(ctx.membership, input.chat_id)),

  create: memberProcedure
    .input(createFlagInput)
    .mutation(({ ctx, input }) => ctx.services.flags.create(ctx.membership, ctx.user.email, input)),

  update: memberProcedure
    .input(updateFlagInput.extend(flagId.shape))
    .mutation(({ ctx, input }) => ctx.services.flags.editNote(ctx.membership, ctx.user.email, input.id, input.note)),

  remove: memberProcedure.input(flagId).mutation(async ({ ctx, input }) => {
    await ctx.services.flags.remove(ctx.membership, ctx.user.email, input.id);
    return { removed: true as const };
  }),
});
