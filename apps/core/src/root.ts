import { agentsRouter, chatsRouter } from './agents/router.ts';
import { authRouter, healthRouter } from './identity/auth-router.ts';
import { devRouter } from './dev-router.ts';
import { evalsRouter, evalWorkRouter } from './evals/router.ts';
import { flagsRouter } from './flags/router.ts';
import { githubRouter } from './github/router.ts';
import { invitationsRouter, membersRouter } from './workspaces/members-router.ts';
import { consoleAuthRouter, deviceAuthRouter } from './identity/device-auth-router.ts';
import { tokensRouter } from './identity/tokens-router.ts';
import { providerWebhooksRouter, sendersRouter } from './verification/senders-router.ts';
import { verificationsRouter } from './verification/router.ts';
import { workspacesRouter } from './workspaces/router.ts';
import { router } from './platform/trpc.ts';

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  deviceAuth: deviceAuthRouter,
  consoleAuth: consoleAuthRouter,
  tokens: tokensRouter,
  workspaces: workspacesRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  verifications: verificationsRouter,
  agents: agentsRouter,
  chats: chatsRouter,
  flags: flagsRouter,
  evals: evalsRouter,
  evalWork: evalWorkRouter,
  github: githubRouter,
  senders: sendersRouter,
  providerWebhooks: providerWebhooksRouter,
  dev: devRouter,
});

export type AppRouter = typeof appRouter;
