import { DomainError, type Whoami } from '@svc/domain';
import { authedProcedure, publicProcedure, router } from '../platform/trpc.ts';

export const authRouter = router({
  whoami: authedProcedure.query(({ ctx }): Whoami => ({
    user: { id: ctx.principal.user.id, email: ctx.principal.user.email },
    token: {
      id: ctx.principal.token.id,
      name: ctx.principal.token.name,
      created_at: ctx.principal.token.createdAt,
      last_used_at: ctx.principal.token.lastUsedAt,
    },
  })),
});

export const healthRouter = router({
  /** Answers once core's database answered: what the gateway's /healthz asks. */
  ping: publicProcedure.query(async ({ ctx }) => {
    await ctx.services.store.ping().catch(() => {
      throw new DomainError('core_unavailable', 'core cannot reach its database');
    });
    return { ok: true as const };
  }),
});
