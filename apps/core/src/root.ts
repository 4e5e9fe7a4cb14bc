import { authRouter, healthRouter } from './routers/auth.ts';
import { workspacesRouter } from './routers/workspaces.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  workspaces: workspacesRouter,
});

export type AppRouter = typeof appRouter;
