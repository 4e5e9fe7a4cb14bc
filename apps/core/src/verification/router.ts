import { createVerificationInput, testNumbersInput, verifyInput } from '@svc/domain';
import { z } from 'zod';
import { authorize } from '../platform/authorization.ts';
import { router, workspaceProcedure } from '../platform/trpc.ts';

const idempotencyKey = z.string().min(1).max(255).optional();
const verificationId = z.object({ id: z.string().max(100) });

export const verificationsRouter = router({
  create: workspaceProcedure.input(createVerificationInput.extend({ idempotency_key: idempotencyKey })).mutation(({ ctx, input }) => {
    authorize(ctx.membership, 'verifyPhones');
    return ctx.services.idempotency.run(
      { workspaceId: ctx.membership.id, operation: 'verifications.create', key: input.idempotency_key, request: input.phone_number },
      () => ctx.services.verifications.create(ctx.membership.id, input.phone_number, input.idempotency_key),
    );
  }),

  verify: workspaceProcedure
    .input(verifyInput.extend({ id: z.string().max(100), idempotency_key: idempotencyKey }))
    .mutation(({ ctx, input }) => {
      authorize(ctx.membership, 'verifyPhones');
      return ctx.services.idempotency.run(
        { workspaceId: ctx.membership.id, operation: `verifications.verify:${input.id}`, key: input.idempotency_key, request: input.code },
        () => ctx.services.verifications.verify(ctx.membership.id, input.id, input.code),
      );
    }),

  get: workspaceProcedure.input(verificationId).query(({ ctx, input }) => ctx.services.verifications.get(ctx.membership.id, input.id)),

  testNumbers: workspaceProcedure.query(({ ctx }) => ctx.services.verifications.listTestNumbers(ctx.membership.id)),

  setTestNumbers: workspaceProcedure.input(testNumbersInput).mutation(async ({ ctx, input }) => {
    authorize(ctx.membership, 'setTestNumbers');
    await ctx.services.verifications.setTestNumbers(ctx.membership.id, input.test_numbers);
    return ctx.services.verifications.listTestNumbers(ctx.membership.id);
  }),
});
