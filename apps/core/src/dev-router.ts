import { DomainError } from '@svc/domain';
import { publicProcedure, router } from './platform/trpc.ts';

/** Local mode only: what the dev sender "sent", and the daily digest on demand. */
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

  /** Runs the daily digest now for today, even where today's is done: to see its mail without waiting for 08:00. */
  digest: localProcedure.mutation(async ({ ctx }) => {
    const { day, workspaces, flagsIssues } = await ctx.services.dailyDigest.run({ force: true });
    return {
      day,
      workspaces: Object.entries(workspaces).map(([workspace, outcome]) => ({ workspace, outcome })),
      flags_issues: flagsIssues,
    };
  }),
});
