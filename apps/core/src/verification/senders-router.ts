import { senderInput } from '@svc/domain';
import { z } from 'zod';
import { authorize } from '../platform/authorization.ts';
import { publicProcedure, router, workspaceProcedure } from '../platform/trpc.ts';

export const sendersRouter = router({
  get: workspaceProcedure.query(({ ctx }) => ctx.services.senders.view(ctx.membership.id, ctx.membership.slug)),

  put: workspaceProcedure.input(z.object({ sender: senderInput })).mutation(async ({ ctx, input }) => {
    authorize(ctx.membership, 'setSender');
    await ctx.services.senders.put(ctx.membership.id, input.sender);
    return ctx.services.senders.view(ctx.membership.id, ctx.membership.slug);
  }),
});

const webhook = z.object({ workspace: z.string().max(100), rawBody: z.string(), signature: z.string().optional() });

/** Provider status callbacks; public, but nothing happens without a valid signature. */
export const providerWebhooksRouter = router({
  whatsapp: publicProcedure
    .input(webhook)
    .mutation(({ ctx, input }) => ctx.services.webhooks.whatsapp(input.workspace, input.rawBody, input.signature)),

  whatsappChallenge: publicProcedure
    .input(z.object({ workspace: z.string().max(100), mode: z.string(), token: z.string(), challenge: z.string().max(1000) }))
    .query(({ ctx, input }) => ctx.services.webhooks.whatsappChallenge(input.workspace, input.mode, input.token, input.challenge)),

  twilio: publicProcedure
    .input(webhook.extend({ url: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.webhooks.twilio(input.workspace, input.url, input.rawBody, input.signature)),
});
