import { setTimeout as sleep } from 'node:timers/promises';
import type { EvalResultView, EvalRunDetailView, EvalRunView } from '@svc/domain';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { Api } from './api.ts';
import { CliError } from './errors.ts';
import type { RunState } from './eval-progress.ts';

const pollMs = 500;
/** Polls that may fail in a row (the network, a restarting gateway) before giving up watching. */
const pollRetries = 5;

/** A run being followed: where to read it, and what to tell of it as it goes on. */
export interface FollowedRun {
  api: Api;
  /** The run's path: `/api/developer/v1/<workspace>/evals/runs/<id>`. */
  path: string;
  started: EvalRunView;
  /** Called with the run as it stands, each time more is known. */
  update(run: RunState): void;
  /** Stops following (Ctrl-C, a client that gave up): the run's last known state is answered. */
  signal: AbortSignal;
}

/**
 * Follows a run until it finishes or `signal` aborts, and answers its last state. The run's event stream tells each
 * case as it finishes; without one (an older server) or once it breaks, the run is polled.
 */
export async function followRun(followed: FollowedRun): Promise<EvalRunDetailView> {
  const detail = () => followed.api.request<EvalRunDetailView>('GET', followed.path);
  if (await fromEvents(followed)) return detail();
  return poll(followed, detail);
}

/** Tells the run's events as they come: true once the run finished, false without a stream, when it broke, or once aborted. */
async function fromEvents({ api, path, started, update, signal }: FollowedRun): Promise<boolean> {
  const body = await api.eventStream(`${path}/events`, signal);
  if (!body) return false;
  const state: RunState = { ...started, results: [] };
  try {
    for await (const { event, data } of body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())) {
      if (event === 'progress') Object.assign(state, JSON.parse(data) as Partial<EvalRunView>);
      else if (event === 'result') state.results.push(JSON.parse(data) as EvalResultView);
      else if (event === 'finished') return true;
      update(state);
    }
  } catch {
    // A broken connection, or aborted: polling picks up from the run as it stands.
  }
  return false;
}

/** Polls the run until it finishes or `signal` aborts, telling its progress; answers its last state. */
async function poll({ update, signal }: FollowedRun, detail: () => Promise<EvalRunDetailView>): Promise<EvalRunDetailView> {
  let failures = 0;
  for (;;) {
    const run = await detail().catch((error: unknown) => {
      // Only a failure to reach the server is worth another try; an answer with an error code is final.
      if (!(error instanceof CliError) || error.code !== undefined || ++failures > pollRetries) throw error;
      return undefined;
    });
    if (run) {
      failures = 0;
      update(run);
      if (run.finished || signal.aborted) return run;
    }
    // Aborting ends the wait at once; the next poll answers the state to stop at.
    await sleep(pollMs, undefined, { signal }).catch(() => undefined);
  }
}
