import { type DeveloperTokenView, optionalPageQuery } from '@svc/domain';
import { z } from 'zod';
import { router, userProcedure } from '../platform/trpc.ts';

export const tokensRouter = router({
  list: userProcedure.input(optionalPageQuery).query(async ({ ctx, input }) => {
    const { tokens, next_cursor } = await ctx.services.identity.listTokens(ctx.user.id, input);
    return {
      tokens: tokens.map((t): DeveloperTokenView => ({
        id: t.id,
        name: t.name,
        created_at: t.createdAt,
        last_used_at: t.lastUsedAt,
        current: t.id === ctx.currentTokenId,
      })),
      next_cursor,
    };
  }),

  revoke: userProcedure.input(z.object({ id: z.string().max(100) })).mutation(async ({ ctx, input }) => {
    await ctx.services.identity.revokeToken(ctx.user.id, input.id);
    return { revoked: true as const };
  }),
});
