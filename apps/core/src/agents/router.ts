import {
  createChatInput,
  environmentName,
  inboxQuery,
  pageQuery,
  publishInput,
  pushInput,
  secretName,
  sendMessageInput,
} from '@svc/domain';
import { z } from 'zod';
import { authorize } from '../platform/authorization.ts';
import { memberProcedure, router, workspaceProcedure } from '../platform/trpc.ts';

export const agentsRouter = router({
  push: workspaceProcedure.input(pushInput).mutation(({ ctx, input }) => {
    authorize(ctx.membership, 'deploy');
    const { workspace: _, ...push } = input;
    return ctx.services.deployments.push(ctx.membership, ctx.principal.user.id, push);
  }),

  publish: workspaceProcedure.input(publishInput).mutation(async ({ ctx, input }) => {
    authorize(ctx.membership, 'deploy');
    const published = await ctx.services.deployments.publish(ctx.membership, input.from);
    const run = await ctx.services.evalRuns.afterPublish(ctx.membership);
    return { ...published, eval_run_id: run?.id ?? null };
  }),

  // Reads the console shows as well: a console session may make them.
  environments: memberProcedure.query(({ ctx }) => ctx.services.deployments.environments(ctx.membership.id)),

  versions: workspaceProcedure.input(pageQuery).query(({ ctx, input }) => ctx.services.deployments.versions(ctx.membership.id, input)),

  setSecret: workspaceProcedure
    .input(z.object({ environment: environmentName, name: secretName, value: z.string().min(1).max(10_000) }))
    .mutation(async ({ ctx, input }) => {
      authorize(ctx.membership, 'setSecrets');
      await ctx.services.deployments.setSecret(ctx.membership.id, input.environment, input.name, input.value);
    }),

  secrets: workspaceProcedure
    .input(z.object({ environment: environmentName }))
    .query(({ ctx, input }) => ctx.services.deployments.listSecrets(ctx.membership.id, input.environment)),
});

export const chatsRouter = router({
  create: workspaceProcedure.input(createChatInput).mutation(({ ctx, input }) => {
    authorize(ctx.membership, 'runChats');
    return ctx.services.chats.create(ctx.membership.id, input);
  }),

  send: workspaceProcedure.input(sendMessageInput.extend({ chat_id: z.string().max(100) })).mutation(({ ctx, input }) => {
    authorize(ctx.membership, 'runChats');
    return ctx.services.chats.send(ctx.membership.id, input.chat_id, input.text);
  }),

  inbox: memberProcedure.input(inboxQuery).query(({ ctx, input }) => ctx.services.chats.inbox(ctx.membership.id, input)),

  get: memberProcedure
    .input(z.object({ chat_id: z.string().max(100) }))
    .query(({ ctx, input }) => ctx.services.chats.get(ctx.membership.id, input.chat_id)),
});
