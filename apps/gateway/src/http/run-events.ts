import { setTimeout as sleep } from 'node:timers/promises';
import type { EvalRunView } from '@svc/domain';
import type { HandlerInput } from './endpoint.ts';

/** The event stream's keep-alive comment, unless SVC_EVENTS_HEARTBEAT_MS says otherwise. */
export const defaultEventsHeartbeatMs = 15_000;
/** How long one call to core waits for results: a stream whose client left stops within it. */
const longPollMs = 10_000;
/**
 * The least time between two calls of a stream to core, taken on the clock's whole multiples of it: results landing
 * meanwhile come in one answer. Without it a busy run answers every follower at every report, and a hundred
 * followers slow the run they follow.
 */
const minPollGapMs = 1_000;

/** A result's `seq`, as the client's `Last-Event-ID` says it; null (from the start) for anything else. */
function cursorOf(lastEventId: string | undefined): number | null {
  return lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : null;
}

/** What a `progress` event says of a run. */
const progressOf = (run: EvalRunView) => ({
  status: run.status,
  cases: run.cases,
  done: run.done,
  passed: run.passed,
  failed: run.failed,
  errors: run.errors,
  regressions: run.regressions,
  skipped: run.skipped,
});

type Input = HandlerInput<unknown, { workspace: string; id: string }>;
type Answer = Awaited<ReturnType<Input['core']['evals']['runs']['events']['query']>>;

/**
 * The long polls under way, by credential, run and cursor: the followers of a run with the same credential at the
 * same place (a hundred tabs, a CI job and an agent) share one call to core and one answer, whose events are
 * serialised once. Another credential never shares: core checks each one.
 */
const polls = new Map<string, { askedAt: number; answer: Promise<Answer> }>();
const serialised = new WeakMap<object, string>();

function poll({ core, caller, params }: Input, after: number | null): { askedAt: number; answer: Promise<Answer> } {
  const { authorization, session } = caller.context;
  const key = JSON.stringify([authorization ?? null, session ?? null, params.workspace, params.id, after]);
  let shared = polls.get(key);
  if (!shared) {
    const answer = core.evals.runs.events.query({ ...params, after, wait_ms: longPollMs }, caller);
    shared = { askedAt: Date.now(), answer };
    polls.set(key, shared);
    const done = () => polls.delete(key);
    answer.then(done, done);
  }
  return shared;
}

/** An event's data as JSON, made once however many streams send it. */
function json(data: object): string {
  let text = serialised.get(data);
  if (text === undefined) serialised.set(data, (text = JSON.stringify(data)));
  return text;
}

/**
 * A run as Server-Sent Events: `progress`, each `result` as it lands, then `finished`, and the stream ends. Every
 * event's id is the `seq` of the last result sent (0 before any): a client back with `Last-Event-ID` gets the results
 * after it, each once. Core is long-polled, so whichever core records a report, every stream hears of it.
 */
export async function streamRunEvents(input: Input): Promise<void> {
  const { core, caller, params, req, res, streams } = input;
  let after = cursorOf(req.get('last-event-id'));
  // Before the stream starts: an unknown run (or workspace, or a bad token) is answered as any error.
  let answer = await core.evals.runs.events.query({ ...params, after, wait_ms: 0 }, caller);
  res.status(200);
  res.set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), streams.heartbeatMs);
  // The client left, or the gateway stops (it must not wait for the stream): ended now, the poll under way ignored.
  const end = () => {
    clearInterval(heartbeat);
    res.off('close', end);
    streams.closing.removeEventListener('abort', end);
    if (!res.writableEnded) res.end();
  };
  res.on('close', end);
  streams.closing.addEventListener('abort', end);
  const send = (event: string, data: object) => res.write(`event: ${event}\nid: ${after ?? 0}\ndata: ${json(data)}\n\n`);
  let lastAsked = Date.now();
  try {
    send('progress', progressOf(answer.run));
    for (;;) {
      // An answer's events leave in one write to the socket, not one each.
      res.cork();
      for (const { seq, result } of answer.results) {
        after = seq;
        send('result', result);
      }
      if (answer.results.length > 0) send('progress', progressOf(answer.run));
      if (answer.ended) send('finished', answer.run);
      res.uncork();
      if (answer.ended) return;
      // On the clock's whole gaps: the streams of a run ask together, so they share the call and its answer.
      await sleep(Math.max(0, Math.ceil((lastAsked + minPollGapMs) / minPollGapMs) * minPollGapMs - Date.now()));
      if (res.writableEnded) return;
      lastAsked = Date.now();
      const shared = poll(input, after);
      answer = await shared.answer;
      if (res.writableEnded) return;
      // Nothing, well before the wait was up: core is stopping. The client comes back, to a core that is not.
      if (answer.results.length === 0 && !answer.ended && Date.now() - shared.askedAt < longPollMs / 2) return;
    }
  } finally {
    end();
  }
}
