import { deviceTokenInput, emailAddress, startDeviceAuthorizationInput } from '@svc/domain';
import { z } from 'zod';
import { publicProcedure, router, sessionProcedure } from '../platform/trpc.ts';

const client = z.object({ ip: z.string().max(100), user_agent: z.string().max(1000) });
const userCode = z.object({ user_code: z.string().max(40), ip: z.string().max(100) });

export const deviceAuthRouter = router({
  start: publicProcedure.input(startDeviceAuthorizationInput.extend({ client })).mutation(({ ctx, input }) => {
    const { client: info, ...request } = input;
    return ctx.services.deviceAuth.start(request, { ip: info.ip, userAgent: info.user_agent });
  }),

  token: publicProcedure
    .input(deviceTokenInput.pick({ device_code: true }))
    .mutation(({ ctx, input }) => ctx.services.deviceAuth.poll(input.device_code)),

  view: sessionProcedure.input(userCode).query(({ ctx, input }) => ctx.services.deviceAuth.view(input.user_code, input.ip)),

  decide: sessionProcedure
    .input(userCode.extend({ decision: z.enum(['approved', 'denied']) }))
    .mutation(({ ctx, input }) => ctx.services.deviceAuth.decide(input.user_code, ctx.consoleSession.user.id, input.decision, input.ip)),
});

export const consoleAuthRouter = router({
  current: sessionProcedure.query(({ ctx }) => ({
    user: { id: ctx.consoleSession.user.id, email: ctx.consoleSession.user.email },
    csrf_token: ctx.consoleSession.csrfToken,
  })),

  requestLink: publicProcedure
    .input(z.object({ email: emailAddress, next: z.string().max(2000).optional(), ip: z.string().max(100) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.loginLinks.requestConsoleLink(input.email, input.next ?? '/', input.ip);
      return { sent: true as const };
    }),

  previewLink: publicProcedure
    .input(z.object({ token: z.string().max(200) }))
    .query(({ ctx, input }) => ctx.services.loginLinks.preview(input.token)),

  redeemLink: publicProcedure
    .input(z.object({ token: z.string().max(200) }))
    .mutation(({ ctx, input }) => ctx.services.loginLinks.redeem(input.token)),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await ctx.services.sessions.destroy(ctx.session);
    return { signed_out: true as const };
  }),
});
