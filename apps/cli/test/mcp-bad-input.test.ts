import { readFileSync } from 'node:fs';
import { type ProcessGroup, removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { spawnSvc } from './spawn-svc.ts';

interface Message {
  id?: string | number | null;
  result?: { tools?: { name: string }[]; isError?: boolean; content?: { text: string }[] };
  error?: { code: number; message: string };
}

let platform: TestPlatform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'demo' } })).status).toBe(201);
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, SVC_WORKSPACE: 'demo', XDG_CONFIG_HOME: tempDir() };
});
afterAll(async () => {
  await platform?.stop();
  removeTempDirs();
});

const initialize = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'svc-test', version: '1.0.0' } },
};
const call = (id: number | string, method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const listTools = (id: number | string) => call(id, 'tools/list');

/** `svc mcp` as a coding agent starts it, fed lines on stdin; its answers are one JSON-RPC message a line on stdout. */
class McpProcess {
  /** Rejects once it exits: what a test waits for fails then, rather than at its timeout. */
  private readonly gone: Promise<never>;

  constructor(readonly svc: ProcessGroup) {
    this.gone = svc.exited.then((code) => {
      throw new Error(`svc mcp exited with ${code}: ${svc.output('stderr')}`);
    });
    this.gone.catch(() => {});
    // Writing to a process that exited fails with EPIPE: the exit is what the test reports.
    svc.child.stdin!.on('error', () => {});
  }

  /** What it answered so far. */
  answers(): Message[] {
    const lines = this.svc.output('stdout').split('\n').slice(0, -1);
    return lines.map((line) => JSON.parse(line) as Message);
  }

  /** Writes `line` (the whole of it before it returns) and a newline, and returns the `count` answers that come next. */
  async send(line: string | Buffer | Buffer[], count = 1): Promise<Message[]> {
    const before = this.answers().length;
    const stdin = this.svc.child.stdin!;
    for (const part of Array.isArray(line) ? line : [line]) {
      if (!stdin.write(part)) await Promise.race([new Promise((resolve) => stdin.once('drain', resolve)), this.gone]);
    }
    stdin.write('\n');
    const answered = expect.poll(() => this.answers().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(before + count);
    await Promise.race([answered, this.gone]);
    return this.answers().slice(before);
  }

  /** It still serves: `tools/list` answers the tools, and the process runs. */
  async expectServing(id: string): Promise<void> {
    const [answer] = await this.send(listTools(id));
    expect(answer).toMatchObject({ id, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'list_flags' })]) } });
    expect(this.svc.child.exitCode).toBeNull();
    expect(() => process.kill(this.svc.child.pid!, 0)).not.toThrow();
  }
}

async function startMcp(initialized = true): Promise<McpProcess> {
  const mcp = new McpProcess(spawnSvc(['mcp'], env, { stdin: 'pipe' }));
  if (initialized) {
    const [answer] = await mcp.send(JSON.stringify(initialize));
    expect(answer).toMatchObject({ id: 'init', result: { serverInfo: { name: 'svc' } } });
    await mcp.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), 0);
  }
  return mcp;
}

/** An answer as `id code`, what a client reads of a JSON-RPC error. */
const asError = (answer: Message | undefined) => `${answer?.id} ${answer?.error?.code}`;

describe('svc mcp answers bad input with JSON-RPC errors and goes on serving', () => {
  it('refuses requests before initialize, but ping', async () => {
    const mcp = await startMcp(false);
    const [early] = await mcp.send(listTools(1));
    expect(early).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining('send initialize first') } });
    expect(await mcp.send(call(2, 'ping'))).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(asError((await mcp.send(call(3, 'tools/call', { name: 'list_flags', arguments: {} })))[0])).toBe('3 -32600');
    expect((await mcp.send(JSON.stringify(initialize)))[0]).toMatchObject({ id: 'init', result: { protocolVersion: '2025-11-25' } });
    await mcp.expectServing('after initialize');
  });

  it('answers a line that is not JSON -32700, and one that is not a request -32600, with the id when it can be read', async () => {
    const mcp = await startMcp();
    const lines: [string | Buffer, string][] = [
      ['not json', 'null -32700'],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"', 'null -32700'],
      [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'null -32700'],
      ['[]', 'null -32600'],
      [`[${listTools(2)}]`, 'null -32600'],
      ['"tools/list"', 'null -32600'],
      ['null', 'null -32600'],
      ['{"jsonrpc":"1.0","id":3,"method":"tools/list"}', '3 -32600'],
      ['{"id":4,"method":"tools/list"}', '4 -32600'],
      ['{"jsonrpc":"2.0","id":5}', '5 -32600'],
      ['{"jsonrpc":"2.0","id":6,"method":42}', '6 -32600'],
      ['{"jsonrpc":"2.0","id":{"n":7},"method":"tools/list"}', 'null -32600'],
      ['{"jsonrpc":"2.0","id":8,"method":"tools/list","extra":true}', '8 -32600'],
    ];
    const answers: [string, string][] = [];
    for (const [line] of lines) answers.push([String(line), asError((await mcp.send(line))[0])]);
    expect(answers).toEqual(lines.map(([line, expected]) => [String(line), expected]));
    await mcp.expectServing('after bad lines');
  });

  it('answers params off the method, and a tool it does not have, -32602; arguments off a tool come back as a tool error', async () => {
    const mcp = await startMcp();
    const requests: [string, string][] = [
      [call(1, 'tools/call', { name: 'list_flags', arguments: 'status=open' }), '1 -32602'],
      [call(2, 'tools/call', 'list_flags'), '2 -32602'],
      [call(3, 'tools/call', { arguments: {} }), '3 -32602'],
      [call(4, 'tools/call', { name: 'no_such_tool', arguments: {} }), '4 -32602'],
      [call(5, 'tools/list', { cursor: 5 }), '5 -32602'],
    ];
    const answers: [string, string][] = [];
    for (const [line] of requests) answers.push([line, asError((await mcp.send(line))[0])]);
    expect(answers).toEqual(requests);
    expect((await mcp.send(requests[0]![0]))[0]!.error!.message).toContain('arguments');
    expect((await mcp.send(requests[3]![0]))[0]!.error!.message).toBe('Unknown tool: no_such_tool');

    // The model reads a tool error and can correct its call: a value off the tool's schema, or an argument it lacks.
    const [refused] = await mcp.send(call(6, 'tools/call', { name: 'list_flags', arguments: { status: 'bogus', agnt: 'support' } }));
    expect(refused?.result?.isError).toBe(true);
    expect(refused?.result?.content?.[0]?.text).toMatch(/status[\s\S]*agnt|agnt[\s\S]*status/);
    const [listed] = await mcp.send(call(7, 'tools/call', { name: 'list_flags', arguments: {} }));
    expect(JSON.parse(listed!.result!.content![0]!.text)).toEqual({ flags: [] });
    await mcp.expectServing('after bad params');
  });

  it('never answers a notification, even a bad one', async () => {
    const mcp = await startMcp();
    await mcp.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}', 0);
    await mcp.send('{"jsonrpc":"2.0","method":"no/such/notification"}', 0);
    await mcp.send('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}', 0);
    // Lines are read in order: once the ping after them is answered, they were read, and only the ping was answered.
    expect(await mcp.send(call('ping', 'ping'))).toEqual([{ jsonrpc: '2.0', id: 'ping', result: {} }]);
  });

  it('skips a line over 1 MiB as it arrives, without holding it, answers -32600, and serves the next line', async () => {
    const mcp = await startMcp();
    const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${mcp.svc.child.pid}/status`, 'utf8'))?.[1]) * 1024;
    const before = peak();
    const lineBytes = 256 * 1024 * 1024;
    const block = Buffer.alloc(4 * 1024 * 1024, 'x');
    const [tooLong] = await mcp.send(Array.from({ length: lineBytes / block.length }, () => block));
    expect(tooLong).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('1048576 bytes') } });
    // Held whole, the line would take all of its 256 MiB; skipped, its chunks are garbage as they arrive.
    expect(peak() - before).toBeLessThan(lineBytes / 2);
    await mcp.expectServing('after a long line');
    // A line just under the limit is read: here, a request with a long cursor, refused for its params.
    const padded = call(1, 'tools/list', { cursor: 5, pad: 'x'.repeat(1024 * 1024 - 100) });
    expect(asError((await mcp.send(padded))[0])).toBe('1 -32602');

    mcp.svc.child.stdin!.end();
    expect(await mcp.svc.exited).toBe(0);
  });
});
