import type { EgressRules } from '@svc/agent-runtime';
import type { Logger } from '@svc/server-kit';
import { type CoreConfig, defaultConfig } from './platform/config.ts';
import { createCoreMetrics } from './platform/metrics.ts';
import { createMessenger } from './verification/providers/messenger.ts';
import type { Store } from './store.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { createChatService } from './agents/chats.ts';
import { createDailyDigest } from './digest/daily-digest.ts';
import { createDeliveryLoop } from './verification/delivery.ts';
import { createDeploymentService } from './agents/deployments.ts';
import { createDeviceAuthService } from './identity/device-auth.ts';
import { createEvalCaseService } from './evals/cases.ts';
import { createEvalReports } from './evals/report.ts';
import { createEvalRunService } from './evals/runs.ts';
import { createEvalRunEvents } from './evals/run-events.ts';
import { createEvalWorkService } from './evals/work.ts';
import { createGraderAgreement } from './evals/grader-agreement.ts';
import { createFlagService } from './flags/service.ts';
import { createNoteCheck } from './flags/note-check.ts';
import { createGithubEventService } from './github/events.ts';
import { createGithubFlagsIssue } from './github/flags-issue.ts';
import { createGithubInstallationService } from './github/installations.ts';
import { createGithubLinkService } from './github/links.ts';
import { createGithubPreviewService } from './github/previews.ts';
import { createIdempotency } from './verification/idempotency.ts';
import { createIdentityService } from './identity/service.ts';
import { createLoginLinkService } from './identity/login-links.ts';
import { createMailer } from './platform/mail.ts';
import { createMemberService } from './workspaces/members.ts';
import { createProviderWebhooks } from './verification/provider-webhooks.ts';
import { createRateLimits } from './platform/rate-limits.ts';
import { createRetention } from './retention.ts';
import { Keyring } from './platform/secrets.ts';
import { createSenderService } from './verification/senders.ts';
import { createSessionService } from './identity/sessions.ts';
import { createVerificationService } from './verification/service.ts';
import { WorkSignal } from './platform/work-signal.ts';
import { createWorkspaceService } from './workspaces/service.ts';

export interface ServiceOptions {
  store: Store;
  /** SVC_SECRET_KEY: derives the code HMAC key and the key that seals secrets at rest. */
  secretKey: Buffer;
  log: Logger;
  config?: CoreConfig;
  clock?: Clock;
}

export function createServices({ store, secretKey, log, config = defaultConfig, clock = systemClock }: ServiceOptions) {
  const keyring = new Keyring(secretKey);
  const metrics = createCoreMetrics(store, clock);
  const senders = createSenderService(store, keyring, config, clock);
  const delivery = createDeliveryLoop({
    store,
    keyring,
    senders,
    messenger: createMessenger(store, config, log, () => clock().toISOString()),
    config,
    clock,
    log,
  });
  const identity = createIdentityService(store, clock);
  const sessions = createSessionService(store, clock);
  const mailer = createMailer(store, keyring, config, clock, log);
  const rateLimits = createRateLimits(config.rateLimits);
  const loginLinks = createLoginLinkService({ store, identity, sessions, mailer, rateLimits, config, clock });
  const deployments = createDeploymentService(store, keyring, clock);
  const idempotency = createIdempotency(store, clock);
  const toolEgress: EgressRules & { platformPorts: Set<number> } = {
    allowPrivateNetworks: config.toolEgress.allowPrivateNetworks,
    platformPorts: new Set(config.toolEgress.gatewayPort === undefined ? [] : [config.toolEgress.gatewayPort]),
  };
  const flags = createFlagService(store, clock, createNoteCheck({ judges: config.evals.judges, models: config.models }));
  const work = new WorkSignal();
  const reported = new WorkSignal();
  const githubEvents = createGithubEventService({ store, clock, log, claimMs: config.github.eventClaimMs });
  const evalRuns = createEvalRunService({ store, flags, config, clock, log, work, reported, ended: githubEvents.runEnded });
  const graders = createGraderAgreement(store, clock);
  const evalReports = createEvalReports(store, evalRuns, graders, config.publicUrl);
  return {
    store,
    clock,
    config,
    metrics,
    identity,
    sessions,
    mailer,
    rateLimits,
    loginLinks,
    deployments,
    /** Core adds its own port once it listens. */
    toolEgress,
    chats: createChatService(store, deployments, flags, { ...config.models, onModelCall: metrics.modelCall }, toolEgress, clock),
    flags,
    evalCases: createEvalCaseService(store, clock),
    evalRuns,
    evalReports,
    graders,
    evalRunEvents: createEvalRunEvents({ store, runs: evalRuns, reported }),
    evalWork: createEvalWorkService({ store, deployments, runs: evalRuns, config, clock, log, work, reported, metrics }),
    github: {
      links: createGithubLinkService(store, clock),
      installations: createGithubInstallationService(store, clock, log),
      events: githubEvents,
      previews: createGithubPreviewService({
        store,
        deployments,
        runs: evalRuns,
        graders,
        events: githubEvents,
        publicUrl: config.publicUrl,
        clock,
        log,
      }),
      flagsIssue: createGithubFlagsIssue(store, flags, config.publicUrl),
    },
    deviceAuth: createDeviceAuthService({ store, keyring, identity, loginLinks, mailer, rateLimits, config, clock }),
    workspaces: createWorkspaceService(store, clock),
    members: createMemberService({ store, identity, sessions, mailer, rateLimits, publicUrl: config.publicUrl, clock }),
    senders,
    verifications: createVerificationService({ store, keyring, senders, config, clock, onQueued: () => void delivery.kick() }),
    idempotency,
    retention: createRetention({ store, idempotency, config, clock, log }),
    dailyDigest: createDailyDigest({ store, mailer, events: githubEvents, config, clock, log }),
    webhooks: createProviderWebhooks(store, senders, clock),
    delivery,
  };
}

export type Services = ReturnType<typeof createServices>;
