import { createFlagInput, flagListQuery, flagsDigestQuery, maxPageLimit, updateFlagInput } from '@svc/domain';
import { z } from 'zod';
import { memberProcedure, router } from '../platform/trpc.ts';

const flagId = z.object({ id: z.string().max(100) });

/** Flags of agent replies: every member reads them; owners, developers and supervisors flag, edit and remove. */
export const flagsRouter = router({
  list: memberProcedure.input(flagListQuery).query(({ ctx, input }) => ctx.services.flags.list(ctx.membership.id, input)),

  /** The digest of the newest open flags with a note, as markdown. */
  digest: memberProcedure.input(flagsDigestQuery).query(({ ctx, input }) => ctx.services.flags.digest(ctx.membership, input.agent)),

  /** The flags among these ids (those a page of eval cases was made from). */
  many: memberProcedure
    .input(z.object({ ids: z.array(z.string().max(100)).max(maxPageLimit) }))
    .query(({ ctx, input }) => ctx.services.flags.many(ctx.membership.id, input.ids)),

  get: memberProcedure.input(flagId).query(({ ctx, input }) => ctx.services.flags.get(ctx.membership, input.id)),

  /** The flags of a chat's replies, in any state, each with its history and the live run that fixed it. */
  ofChat: memberProcedure
    .input(z.object({ chat_id: z.string().max(100) }))
    .query(({ ctx, input }) => ctx.services.flags.ofChat(ctx.membership, input.chat_id)),

  /** What flagging a reply with a note would warn of, nothing flagged. */
  check: memberProcedure.input(createFlagInput).query(({ ctx, input }) => ctx.services.flags.check(ctx.membership, input)),

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
