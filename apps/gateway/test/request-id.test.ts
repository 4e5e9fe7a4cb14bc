import { createLogger } from '@svc/server-kit';
import { request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from './platform.ts';
import { evalsWorkspace, salesAgent } from './evals/setup.ts';

type Line = Record<string, unknown> & { msg: string };

/** A logger as the processes make theirs, at info, writing its lines here. */
function captured() {
  const lines: Line[] = [];
  return {
    lines,
    log: createLogger('test', { LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }),
  };
}

const core = captured();
const gateway = captured();
const evalRunner = captured();
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform({ coreLog: core.log, gatewayLog: gateway.log, evalRunnerLog: evalRunner.log });
});
afterAll(() => platform.stop());

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
const newId = /^[\da-f]{32}$/;

describe('the gateway', () => {
  it("answers every request with its id in X-Request-Id: the traceparent's trace id, else the X-Request-Id sent, else a new one", async () => {
    const idOf = async (headers: Record<string, string>) =>
      (await request(`${platform.url}/cli/whoami`, { headers })).headers.get('x-request-id');
    expect(await idOf({ 'x-request-id': 'abc-123' })).toBe('abc-123');
    expect(await idOf({ traceparent })).toBe(traceId);
    expect(await idOf({ traceparent, 'x-request-id': 'abc-123' })).toBe(traceId);
    const fresh = [await idOf({}), await idOf({})];
    expect(fresh).toEqual([expect.stringMatching(newId), expect.stringMatching(newId)]);
    expect(fresh[0]).not.toBe(fresh[1]);
    // Too long, or a character that could forge a log line or a header: not taken.
    expect(await idOf({ 'x-request-id': 'x'.repeat(129) })).toMatch(newId);
    expect(await idOf({ 'x-request-id': 'abc 123"}' })).toMatch(newId);
    // Errors and pages answer it too.
    const missing = await request(`${platform.url}/no/such/page`, { headers: { 'x-request-id': 'abc-404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('abc-404');
  });

  it("puts the id on its request line and on core's lines for the calls the request made", async () => {
    const ws = await evalsWorkspace(platform, 'request-ids');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'request-ids' }));
    await ws.addCase(['what is the price?'], 'Says "12 USD".');
    const started = await ws.evals('/runs', { json: {}, headers: { 'x-request-id': 'abc-123' } });
    expect(started.status).toBe(202);
    expect(started.headers.get('x-request-id')).toBe('abc-123');

    const lineOf = (lines: Line[], msg: string | RegExp) =>
      lines.find((line) => (typeof msg === 'string' ? line.msg === msg : msg.test(line.msg)));
    await expect
      .poll(() => lineOf(gateway.lines, /^POST \/api\/developer\/v1\/request-ids\/evals\/runs 202/))
      .toMatchObject({
        request_id: 'abc-123',
      });
    expect(lineOf(core.lines, 'eval run started')).toMatchObject({ request_id: 'abc-123', run: started.body.id });

    // The runner's calls for the case carry an id of their own, on its line and on core's for the report that finished the run.
    await expect.poll(() => lineOf(evalRunner.lines, 'case finished')).toMatchObject({ request_id: expect.stringMatching(newId) });
    const runnerId = lineOf(evalRunner.lines, 'case finished')!.request_id;
    expect(lineOf(core.lines, 'eval run finished')).toMatchObject({ request_id: runnerId, run: started.body.id });
  });
});
