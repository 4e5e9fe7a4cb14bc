import { createGithubLinkInput, previewDeployInput, repositoryName } from '@svc/domain';
import { z } from 'zod';
import { memberProcedure, publicProcedure, router } from '../platform/trpc.ts';

const repository = z.object({ repository: repositoryName });
const claimed = z.object({ id: z.string().max(100), claim_id: z.string().max(100) });

/**
 * The GitHub App: the repositories members link (every member reads them; owners and developers change them), and
 * what the app itself asks of core (behind the internal token like every call): its webhook deliveries and
 * installations, pull request previews, the events it is to act on, and the markdown it posts.
 */
export const githubRouter = router({
  links: router({
    list: memberProcedure.query(({ ctx }) => ctx.services.github.links.list(ctx.membership)),

    create: memberProcedure
      .input(createGithubLinkInput)
      .mutation(({ ctx, input }) => ctx.services.github.links.create(ctx.membership, ctx.user.email, input.repository)),

    remove: memberProcedure.input(repository).mutation(async ({ ctx, input }) => {
      await ctx.services.github.links.remove(ctx.membership, input.repository);
      return { removed: true as const };
    }),
  }),

  deliveries: router({
    claim: publicProcedure
      .input(z.object({ id: z.string().min(1).max(100) }))
      .mutation(({ ctx, input }) => ctx.services.github.installations.claimDelivery(input.id)),
    release: publicProcedure
      .input(z.object({ id: z.string().min(1).max(100) }))
      .mutation(({ ctx, input }) => ctx.services.github.installations.releaseDelivery(input.id)),
  }),

  installations: router({
    sync: publicProcedure
      .input(
        z.object({
          installation_id: z.number().int().positive(),
          added: z.array(repositoryName).max(10_000).default([]),
          removed: z.array(repositoryName).max(10_000).default([]),
          deleted: z.boolean().optional(),
        }),
      )
      .mutation(({ ctx, input }) =>
        ctx.services.github.installations.sync(input.installation_id, input.added, input.removed, input.deleted ?? false),
      ),
  }),

  repositories: router({
    find: publicProcedure.input(repository).query(({ ctx, input }) => ctx.services.github.installations.find(input.repository)),
  }),

  previews: router({
    deploy: publicProcedure.input(previewDeployInput).mutation(({ ctx, input }) => ctx.services.github.previews.deploy(input)),
  }),

  events: router({
    claim: publicProcedure
      .input(
        z.object({
          consumer: z.string().min(1).max(200),
          max: z.number().int().min(1).max(100),
          wait_ms: z.number().int().min(0).max(25_000),
        }),
      )
      .mutation(({ ctx, input, signal }) => ctx.services.github.events.claim(input.consumer, input.max, input.wait_ms, signal)),

    done: publicProcedure.input(claimed).mutation(({ ctx, input }) => ctx.services.github.events.done(input.id, input.claim_id)),

    retry: publicProcedure
      .input(claimed.extend({ error: z.string().max(10_000) }))
      .mutation(({ ctx, input }) => ctx.services.github.events.retry(input.id, input.claim_id, input.error)),
  }),

  comment: publicProcedure
    .input(z.object({ run_id: z.string().max(100) }))
    .query(({ ctx, input }) => ctx.services.github.previews.comment(input.run_id)),

  flagsIssue: publicProcedure
    .input(z.object({ workspace_id: z.string().max(100) }))
    .query(({ ctx, input }) => ctx.services.github.flagsIssue(input.workspace_id)),
});
