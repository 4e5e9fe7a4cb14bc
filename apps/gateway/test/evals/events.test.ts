import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAgent } from '../agents/order-agent.ts';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { type EventStream, openEventStream, readToEnd, type StreamEvent } from './event-stream.ts';
import { startHeldBackend } from './held-backend.ts';
import { type EvalsApi, evalsWorkspace, salesAgent } from './setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  // Replays call backends on 127.0.0.1, as a developer's own backend in local mode; a short keep-alive to wait for.
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true }, eventsHeartbeatMs: 200 });
});
afterAll(() => platform.stop());

interface Result {
  case_id: string;
  verdict: string;
}

const eventsOf = (ws: EvalsApi, runId: string, lastEventId?: string) =>
  openEventStream(`${platform.url}/api/developer/v1/${ws.slug}/evals/runs/${runId}/events`, ws.token, lastEventId);

const resultsIn = (events: StreamEvent[]) => events.filter((e) => e.event === 'result').map((e) => e.data as Result);
const byCase = (results: Result[]) => [...results].sort((a, b) => a.case_id.localeCompare(b.case_id));

/** Reads events until `count` results have come; the events read. */
async function readResults(stream: EventStream, count: number): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  while (resultsIn(events).length < count) {
    const event = await stream.next();
    if (!event) throw new Error(`the stream ended after ${resultsIn(events).length} results`);
    if (!event.comment) events.push(event);
  }
  return events;
}

/** The support agent asking the customer's backend about an order; greetings need no backend. */
const orderFiles = (slug: string, url: string) => ({ ...orderAgent({ url }), 'svc.yaml': `workspace: ${slug}\n` });

describe("a run's event stream", () => {
  it('gives progress, every result once as it lands, then finished, and ends', async () => {
    const ws = await evalsWorkspace(platform, 'events-all');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'events-all' }));
    for (const price of ['12', '15', '12', '20']) await ws.addCase(['what is the price?'], `Says "${price} USD".`);
    const started = await ws.start();
    const stream = await eventsOf(ws, started.id);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    const events = await readToEnd(stream);

    expect(events[0]).toMatchObject({ event: 'progress', data: { cases: 4 } });
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ event: 'finished', data: { id: started.id, finished: true, done: 4, passed: 2, failed: 2 } });
    const run = await ws.finished(started.id);
    expect(byCase(resultsIn(events))).toEqual(byCase(run.body.results));
    expect(events.filter((e) => e.event === 'progress').at(-1)).toMatchObject({ data: { done: 4, passed: 2, failed: 2 } });
    // Ids grow with the results, and the last event's id is the last result's.
    const ids = events.filter((e) => e.event === 'result').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(4);
    expect(finished.id).toBe(String(ids.at(-1)));

    // Once the run is over, the stream answers everything at once, and from a cursor only what follows it.
    expect(byCase(resultsIn(await readToEnd(await eventsOf(ws, started.id))))).toEqual(byCase(run.body.results));
    const rest = await readToEnd(await eventsOf(ws, started.id, String(ids[1])));
    expect(resultsIn(rest)).toEqual(resultsIn(events).slice(2));
    expect(rest.at(-1)!.event).toBe('finished');
  });

  it('resumed with Last-Event-ID after a disconnect, gives every result exactly once across both connections', async () => {
    const backend = await startHeldBackend();
    try {
      const ws = await evalsWorkspace(platform, 'events-resume');
      await ws.deploy('preview', orderFiles('events-resume', backend.url));
      const held = await ws.addCase(['where is order A-1?'], 'Says "shipped".', 'support');
      for (const greeting of ['hello', 'hi', 'hey']) await ws.addCase([greeting], 'Says "hello".', 'support');
      const started = await ws.start();

      // The greetings land while the order's replay is held: the run cannot end before the client leaves.
      const first = await eventsOf(ws, started.id);
      const before = await readResults(first, 3);
      first.close();
      expect(resultsIn(before).map((r) => r.case_id)).not.toContain(held);
      await backend.held(1);
      backend.release();

      const second = await eventsOf(ws, started.id, before.at(-1)!.id);
      const after = await readToEnd(second);
      expect(after.at(-1)).toMatchObject({ event: 'finished', data: { done: 4 } });
      const run = await ws.finished(started.id);
      expect(byCase([...resultsIn(before), ...resultsIn(after)])).toEqual(byCase(run.body.results));
      expect(resultsIn(after).map((r) => r.case_id)).toEqual([held]);
    } finally {
      await backend.close();
    }
  });

  it('sends a keep-alive comment while the run is idle', async () => {
    const backend = await startHeldBackend();
    try {
      const ws = await evalsWorkspace(platform, 'events-idle');
      await ws.deploy('preview', orderFiles('events-idle', backend.url));
      await ws.addCase(['where is order A-1?'], 'Says "shipped".', 'support');
      const started = await ws.start();
      const stream = await eventsOf(ws, started.id);
      await backend.held(1);
      let event = await stream.next();
      while (event && !event.comment) event = await stream.next();
      expect(event).toEqual({ comment: 'keep-alive' });
      stream.close();
    } finally {
      await backend.close();
    }
  });

  it('answers 404 eval_run_not_found in JSON for a run not in the workspace, and 401 without a token', async () => {
    const ws = await evalsWorkspace(platform, 'events-unknown');
    const unknown = await eventsOf(ws, 'run_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'eval_run_not_found' } });
    const anonymous = await fetch(`${platform.url}/api/developer/v1/${ws.slug}/evals/runs/run_nope/events`);
    expect(anonymous.status).toBe(401);
  });

  it('is read by any member', async () => {
    const ws = await evalsWorkspace(platform, 'events-member');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'events-member' }));
    await ws.addCase(['what is the price?'], 'Says "12 USD".');
    const started = await ws.start();
    const supervisor = await ws.member('supervisor');
    const stream = await openEventStream(`${platform.url}/api/developer/v1/${ws.slug}/evals/runs/${started.id}/events`, supervisor);
    expect(stream.status).toBe(200);
    expect((await readToEnd(stream)).at(-1)).toMatchObject({ event: 'finished', data: { passed: 1 } });
  });
});
