import { DomainError } from '@svc/domain';
import { publicProcedure, router } from '../trpc.ts';

/** Local mode only: what the dev sender "sent". */
const localProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.services.config.localMode) throw new DomainError('not_found', 'not found');
  return next();
});

export const devRouter = router({
  outbox: localProcedure.query(async ({ ctx }) => ({
    messages: (await ctx.services.store.devMessages.list(200)).map((m) => ({
      to: m.to,
      body: m.body,
      verification_id: m.verificationId,
      created_at: m.createdAt,
    })),
  })),

  mailbox: localProcedure.query(async ({ ctx }) => ({
    messages: (await ctx.services.store.devMails.list(200)).map((m) => ({
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      created_at: m.createdAt,
    })),
  })),
});
