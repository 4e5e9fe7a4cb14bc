import { agentsRouter, chatsRouter } from './routers/agents.ts';
import { authRouter, healthRouter } from './routers/auth.ts';
import { devRouter } from './routers/dev.ts';
import { evalsRouter, evalWorkRouter } from './routers/evals.ts';
import { flagsRouter } from './routers/flags.ts';
import { githubRouter } from './routers/github.ts';
import { invitationsRouter, membersRouter } from './routers/members.ts';
import { consoleAuthRouter, deviceAuthRouter } from './routers/device-auth.ts';
import { tokensRouter } from './routers/tokens.ts';
import { providerWebhooksRouter, sendersRouter } from './routers/senders.ts';
import { verificationsRouter } from './routers/verifications.ts';
import { workspacesRouter } from './routers/workspaces.ts';
import { router } from './trpc.ts';

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
