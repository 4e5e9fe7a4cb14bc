import { authRouter, healthRouter } from './routers/auth.ts';
import { devRouter } from './routers/dev.ts';
import { providerWebhooksRouter, sendersRouter } from './routers/senders.ts';
import { verificationsRouter } from './routers/verifications.ts';
import { workspacesRouter } from './routers/workspaces.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  workspaces: workspacesRouter,
  verifications: verificationsRouter,
  senders: sendersRouter,
  providerWebhooks: providerWebhooksRouter,
  dev: devRouter,
});

export type AppRouter = typeof appRouter;
