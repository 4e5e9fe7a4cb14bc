import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { CoreConnection } from '@svc/core-client';
import { type Logger, newRequestId, runCoreLoop, withRequestId } from '@svc/server-kit';
import type { Probot } from 'probot';
import { z } from 'zod';
import { coreErrorOf } from './core.ts';
import { syncFlagsIssue } from './flags-issue.ts';
import { repoOf, statusOf } from './github.ts';
import { onePullRequestAtATime, writeStickyComment } from './sticky-comment.ts';

/** How long a claim request waits for an event when there is none. */
const longPollMs = 25_000;
/** Events claimed per request; they are handled one after another. */
const maxClaim = 8;

const runFinished = z.object({ run_id: z.string() });
const flagsIssue = z.object({ workspace_id: z.string(), repository: z.string(), installation_id: z.coerce.number().int().optional() });

export interface EventLoopOptions {
  connection: CoreConnection;
  probot: Probot;
  log: Logger;
  /** How long to wait before asking core again after it did not answer. */
  pollMs: number;
}

export interface EventLoop {
  /** Resolves once core has answered for the first time. */
  connected: Promise<void>;
  /** Claims nothing more, finishes the event under way, then resolves. */
  stop(): Promise<void>;
}

/**
 * Does what core asks of GitHub: it long-polls core's event outbox, handles each event (a finished run's result
 * into its pull request's comment, a repository's flags issue kept current), and marks it done, or gives it back
 * to be retried later when it failed. A claimed event is core's until done: an app stopped mid-event leaves the
 * claim to expire, and another app process (or this one restarted) handles it.
 */
export function startEventLoop({ connection, probot, log, pollMs }: EventLoopOptions): EventLoop {
  const { core, poll } = connection;
  const consumer = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const stopping = new AbortController();
  let botLogin: string | undefined;

  /** The login of the issues and comments the app writes: its slug with `[bot]`. */
  async function appLogin(): Promise<string> {
    if (!botLogin) {
      const octokit = await probot.auth();
      const { data: app } = await octokit.rest.apps.getAuthenticated();
      botLogin = `${app?.slug}[bot]`;
    }
    return botLogin;
  }

  async function handle(kind: string, payload: unknown): Promise<void> {
    if (kind === 'run_finished') {
      const { run_id } = runFinished.parse(payload);
      const comment = await core.github.comment.query({ run_id });
      const octokit = await probot.auth(comment.installation_id);
      const pr = { repository: comment.repository, pullNumber: comment.pull_number };
      const where = { repository: pr.repository, pull_request: pr.pullNumber, run: run_id };
      await onePullRequestAtATime(pr, async () => {
        // A run of a commit the pull request has moved on from would overwrite the newer commit's comment.
        const { data: pull } = await octokit.rest.pulls.get({ ...repoOf(pr.repository), pull_number: pr.pullNumber });
        if (pull.head.sha !== comment.head_sha)
          return log.info({ ...where, head_sha: pull.head.sha }, 'run of an earlier commit: comment left to the newer one');
        const written = await writeStickyComment(octokit, pr, comment.markdown);
        log.info(where, `run result ${written} in the pull request's comment`);
      });
      return;
    }
    if (kind === 'flags_issue') {
      const event = flagsIssue.parse(payload);
      const installation =
        event.installation_id ?? (await core.github.repositories.find.query({ repository: event.repository }))?.installation_id;
      if (!installation)
        return log.info({ repository: event.repository }, 'repository no longer linked or installed: flags issue left as it is');
      const content = await core.github.flagsIssue.query({ workspace_id: event.workspace_id });
      const octokit = await probot.auth(installation);
      await syncFlagsIssue(octokit, event.repository, await appLogin(), content, log);
      return;
    }
    log.warn({ kind }, 'an event of a kind this app does not handle; marking it done');
  }

  /** Handles a claimed event and marks it done, or gives it back to be retried. */
  async function handleClaimed(event: { id: string; claim_id: string; kind: string; payload: unknown }): Promise<void> {
    try {
      await handle(event.kind, event.payload);
      await core.github.events.done.mutate({ id: event.id, claim_id: event.claim_id });
    } catch (error) {
      // GitHub or core said the thing is gone or refused it for good (uninstalled, deleted, invalid, a run that is no
      // preview's, a workspace deleted): retrying cannot help.
      const status = statusOf(error);
      const refused = coreErrorOf(error)?.code;
      if (status === 404 || status === 410 || status === 422 || refused?.endsWith('_not_found')) {
        log.warn({ event: event.id, kind: event.kind, status, error: refused, err: error }, 'event refused for good; marking it done');
        await core.github.events.done.mutate({ id: event.id, claim_id: event.claim_id });
        return;
      }
      log.warn({ event: event.id, kind: event.kind, err: error }, 'event failed; core hands it out again later');
      await core.github.events.retry.mutate({
        id: event.id,
        claim_id: event.claim_id,
        error: String((error as Error).message ?? error).slice(0, 500),
      });
    }
  }

  async function claimAndHandle(): Promise<void> {
    const { events } = await poll.github.events.claim.mutate({ consumer, max: maxClaim, wait_ms: longPollMs }, { signal: stopping.signal });
    for (const event of events) {
      if (stopping.signal.aborted) return; // the rest of the claims expire, and core hands them out again
      // An event is a request of its own: what is logged and asked of core while handling it carries one id.
      await withRequestId(newRequestId(), () => handleClaimed(event));
    }
  }

  const { connected, done: loop } = runCoreLoop({
    log,
    pollMs,
    signal: stopping.signal,
    messages: {
      connected: 'GitHub App connected to core',
      refused: "core refused the GitHub App: its SVC_SECRET_KEY is not core's; retrying",
    },
    context: () => ({ consumer }),
    ping: () => core.health.ping.query(undefined, { signal: stopping.signal }),
    work: claimAndHandle,
  });

  return {
    connected,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
