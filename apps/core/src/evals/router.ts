import {
  createEvalCaseInput,
  evalCaseQuery,
  evalRunQuery,
  graderQuery,
  maxPageLimit,
  overrideInput,
  replayedTurns,
  startRunInput,
  updateEvalCaseInput,
  verdict,
} from '@svc/domain';
import { z } from 'zod';
import { memberProcedure, publicProcedure, router } from '../platform/trpc.ts';

const id = z.object({ id: z.string().max(100) });
const tokens = z.object({ input: z.number().int().min(0), output: z.number().int().min(0) });

/** Eval cases and runs: every member reads them; the services authorize the writes (`authorization.ts`). */
export const evalsRouter = router({
  cases: router({
    list: memberProcedure.input(evalCaseQuery).query(({ ctx, input }) => ctx.services.evalCases.list(ctx.membership.id, input)),

    /** The cases a run replayed, removed ones too: what its page shows beside each result. */
    ofRun: memberProcedure.input(id).query(({ ctx, input }) => ctx.services.evalCases.ofRun(ctx.membership.id, input.id)),

    get: memberProcedure.input(id).query(({ ctx, input }) => ctx.services.evalCases.get(ctx.membership.id, input.id)),

    /** These cases' verdicts in live's last finished runs: each case's strip on its agent's cases page. */
    liveHistories: memberProcedure
      .input(z.object({ case_ids: z.array(z.string().max(100)).max(maxPageLimit), runs: z.number().int().min(1).max(30) }))
      .query(({ ctx, input }) => ctx.services.evalRuns.liveHistories(ctx.membership.id, input.case_ids, input.runs)),

    create: memberProcedure
      .input(createEvalCaseInput)
      .mutation(({ ctx, input }) => ctx.services.evalCases.create(ctx.membership, ctx.user.email, input)),

    update: memberProcedure.input(z.intersection(updateEvalCaseInput, id)).mutation(({ ctx, input }) => {
      const { workspace: _, id: caseId, ...change } = input;
      return ctx.services.evalCases.update(ctx.membership, ctx.user.email, caseId, change);
    }),

    remove: memberProcedure.input(id).mutation(async ({ ctx, input }) => {
      await ctx.services.evalCases.remove(ctx.membership, ctx.user.email, input.id);
      return { removed: true as const };
    }),
  }),

  runs: router({
    start: memberProcedure.input(startRunInput).mutation(({ ctx, input }) => {
      const { workspace: _, ...start } = input;
      return ctx.services.evalRuns.start(ctx.membership, ctx.user.email, start);
    }),

    list: memberProcedure
      .input(evalRunQuery)
      .query(({ ctx, input }) => ctx.services.evalRuns.list(ctx.membership.id, input.environment, input)),

    get: memberProcedure.input(id).query(({ ctx, input }) => ctx.services.evalRuns.get(ctx.membership.id, input.id)),

    /** A run's results after a cursor, long-polled by its event stream. */
    events: memberProcedure
      .input(id.extend({ after: z.number().int().min(0).nullable(), wait_ms: z.number().int().min(0).max(25_000) }))
      .query(({ ctx, input, signal }) => ctx.services.evalRunEvents.after(ctx.membership.id, input.id, input.after, input.wait_ms, signal)),

    report: memberProcedure.input(id).query(({ ctx, input }) => ctx.services.evalReports.markdown(ctx.membership, input.id)),

    cancel: memberProcedure.input(id).mutation(({ ctx, input }) => ctx.services.evalRuns.cancel(ctx.membership, input.id)),

    override: memberProcedure
      .input(overrideInput.extend({ id: z.string().max(100), case_id: z.string().max(100) }))
      .mutation(({ ctx, input }) => ctx.services.evalRuns.override(ctx.membership, ctx.user.email, input.id, input.case_id, input.verdict)),
  }),

  graders: memberProcedure.input(graderQuery).query(({ ctx, input }) => ctx.services.graders.list(ctx.membership.id, input.days)),
});

const lease = z.object({ id: z.string().max(100), lease_id: z.string().max(100) });

/** What eval runners call: core only hands out work and records what they report. */
export const evalWorkRouter = router({
  lease: publicProcedure
    .input(
      z.object({ runner: z.string().min(1).max(200), max: z.number().int().min(1).max(64), wait_ms: z.number().int().min(0).max(25_000) }),
    )
    .mutation(({ ctx, input, signal }) => ctx.services.evalWork.lease(input.runner, input.max, input.wait_ms, signal)),

  bundle: publicProcedure
    .input(z.object({ workspace_id: z.string().max(100), version_id: z.string().max(100) }))
    .query(({ ctx, input }) => ctx.services.evalWork.bundle(input.workspace_id, input.version_id)),

  renew: publicProcedure
    .input(z.object({ leases: z.array(lease).max(1000) }))
    .mutation(({ ctx, input }) => ctx.services.evalWork.renew(input.leases)),

  report: publicProcedure
    .input(
      lease.extend({
        verdict,
        reasoning: z.string().max(10_000),
        tokens,
        judge_tokens: tokens,
        messages: z
          .array(
            z.object({
              role: z.enum(['visitor', 'agent']),
              text: z.string().max(100_000),
              trace: z.unknown(),
              created_at: z.iso.datetime(),
            }),
          )
          .max(replayedTurns * 2),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.evalWork.report(input)),
});
