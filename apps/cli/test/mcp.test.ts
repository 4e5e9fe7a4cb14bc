import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { EvalCaseView } from '@svc/domain';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemberWithToken, createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const note = 'Greets the visitor with "Welcome to Acme".';

let platform: TestPlatform;
let token: string;
let repo: string;
const clients: Client[] = [];

const api = (path: string, init: { json?: unknown; method?: string; token?: string } = {}) =>
  request(`${platform.url}/api/developer/v1/demo${path}`, { token, ...init });
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' }).toString().trim();

/** `svc mcp` in the repository, as a coding agent starts it, driven by the SDK's own client over stdio. */
async function connect(as: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? '',
      SVC_BASE_URL: platform.url,
      SVC_TOKEN: as,
      XDG_CONFIG_HOME: tempDir(),
      SVC_TEST_RUN: process.env.SVC_TEST_RUN ?? '',
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[])[0]!.text;

beforeAll(async () => {
  platform = await startPlatform();
  token = await createUserWithToken(platform, 'ada@example.com');
  const env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
  expect((await runSvc(['workspaces', 'create', 'demo'], env)).code).toBe(0);
  repo = tempDir('svc-repo-');
  cpSync(demo, repo, { recursive: true });
  git('init', '-q', '-b', 'feat/welcome');
  expect((await runSvc(['push', '--env', 'live'], env, undefined, repo)).code).toBe(0);
  // A supervisor flags live's greeting with what it should have said: the flag's case.
  const chat = await request(`${platform.url}/api/v1/demo/chats`, { token, json: { agent: 'support', environment: 'live' } });
  const sent = await request(`${platform.url}/api/v1/demo/chats/${chat.body.chat_id}/messages`, { token, json: { text: 'hello' } });
  expect((await api('/flags', { json: { message_id: sent.body.message_id, note } })).status).toBe(201);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await platform?.stop();
  removeTempDirs();
});

describe('svc mcp', () => {
  it('serves the loop from a flag to a fix: read the digest, push a fix, run the evals with progress, read the report', async () => {
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'add_eval_case',
        'eval_report',
        'flags_digest',
        'get_eval_run',
        'get_flag',
        'list_eval_cases',
        'list_flags',
        'publish',
        'push',
        'run_evals',
        'update_eval_case',
      ].sort(),
    );
    for (const tool of tools)
      expect([tool.name, tool.description!.length > 40, tool.inputSchema.type]).toEqual([tool.name, true, 'object']);

    // The digest, byte for byte the text of GET …/flags.md, as a tool and as a resource.
    const digest = String((await api('/flags.md')).body);
    expect(digest).toContain(note);
    expect(textOf(await client.callTool({ name: 'flags_digest', arguments: {} }))).toBe(digest);
    // Every open flag is the one flag here: the same text; one agent's is the server's digest of that agent.
    expect(textOf(await client.callTool({ name: 'flags_digest', arguments: { all: true } }))).toBe(digest);
    expect(textOf(await client.callTool({ name: 'flags_digest', arguments: { agent: 'support' } }))).toBe(
      String((await api('/flags.md?agent=support')).body),
    );
    const resource = await client.readResource({ uri: 'svc://demo/flags.md' });
    expect(resource.contents).toEqual([{ uri: 'svc://demo/flags.md', mimeType: 'text/markdown', text: digest }]);
    const listedFlags = await client.callTool({ name: 'list_flags', arguments: {} });
    const listed = JSON.parse(textOf(listedFlags)) as { flags: { note: string }[] };
    expect(listed.flags.map((flag) => flag.note)).toEqual([note]);
    expect(listedFlags.structuredContent).toEqual(listed);
    const cases = JSON.parse(textOf(await client.callTool({ name: 'list_eval_cases', arguments: { agent: 'support' } })));
    expect(cases.cases.map((c: { expected: string }) => c.expected)).toEqual([note]);

    // The fix, pushed to the branch's environment.
    const manifest = join(repo, 'agents/support/agent.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('fallback: "I can check', 'fallback: "Welcome to Acme! I can check'));
    const pushing = await client.callTool({ name: 'push', arguments: {} });
    const pushed = JSON.parse(textOf(pushing));
    expect(pushed).toMatchObject({ environment: 'feat-welcome', created: true, version: { number: 2 }, dirty: true });
    expect(pushing.structuredContent).toEqual(pushed);

    // The evals on it, waited for: a progress notification as cases finish, then the summary.
    const progress: Progress[] = [];
    const ran = await client.callTool({ name: 'run_evals', arguments: { wait: true } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(ran.isError).toBeFalsy();
    const summary = textOf(ran);
    expect(summary).toContain('Evals on feat-welcome (v2): passed');
    expect(summary).toContain('1 case: 1 passed, 0 failed, 0 errors, 0 regressions.');
    expect(progress.at(-1)).toMatchObject({ progress: 1, total: 1, message: expect.stringContaining('1 of 1 cases done: 1 passed') });

    // Without wait: the id at once; the run and its report by id.
    const started = textOf(await client.callTool({ name: 'run_evals', arguments: { environment: 'live' } }));
    const id = /Started eval run (\S+) of 1 cases on live/.exec(started)?.[1];
    expect(id).toBeDefined();
    await expect
      .poll(async () => JSON.parse(textOf(await client.callTool({ name: 'get_eval_run', arguments: { id } }))).finished)
      .toBe(true);
    const run = JSON.parse(textOf(await client.callTool({ name: 'get_eval_run', arguments: { id } })));
    expect(run).toMatchObject({ id, environment: 'live', failed: 1 });
    expect(textOf(await client.callTool({ name: 'eval_report', arguments: { id } }))).toBe(
      String((await api(`/evals/runs/${id}.md`)).body),
    );
  });

  it('answers what the token may not do as tool errors carrying the error code', async () => {
    const supervisor = await createMemberWithToken(platform, 'demo', 'sam@example.com', 'supervisor');
    const client = await connect(supervisor);

    // A supervisor reads the flags, but neither deploys nor starts runs.
    expect(textOf(await client.callTool({ name: 'flags_digest', arguments: {} }))).toContain(note);
    for (const name of ['push', 'run_evals']) {
      const refused = await client.callTool({ name, arguments: {} });
      expect([name, refused.isError, JSON.parse(textOf(refused)).error.code]).toEqual([name, true, 'forbidden']);
    }
    const unknown = await client.callTool({ name: 'get_eval_run', arguments: { id: 'run_unknown' } });
    expect([unknown.isError, JSON.parse(textOf(unknown)).error.code]).toEqual([true, 'eval_run_not_found']);
  });
});

describe('svc mcp for a coding agent', () => {
  it('says what it is for and the loop, what each tool changes, and the shape of each JSON answer', async () => {
    const client = await connect(token);
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('workspace demo');
    for (const step of ['flags_digest', 'get_flag', 'push', 'run_evals', 'publish'])
      expect([step, instructions.includes(step)]).toEqual([step, true]);

    const { tools } = await client.listTools();
    const hints = Object.fromEntries(
      tools.map(({ name, annotations: a }) => [name, [a?.readOnlyHint, a?.destructiveHint, a?.idempotentHint, a?.openWorldHint]]),
    );
    const read = [true, undefined, undefined, false];
    expect(hints).toEqual({
      flags_digest: read,
      list_flags: read,
      get_flag: read,
      list_eval_cases: read,
      get_eval_run: read,
      eval_report: read,
      add_eval_case: [false, false, false, false],
      update_eval_case: [false, true, true, false],
      push: [false, true, true, false],
      run_evals: [false, false, false, true],
      publish: [false, true, false, true],
    });
    // Every tool answering JSON says its shape; the digest, the report and the run summary are text.
    const textOnly = tools.filter((tool) => !tool.outputSchema).map((tool) => tool.name);
    expect(textOnly.sort()).toEqual(['eval_report', 'flags_digest', 'run_evals']);
    const flagSchema = tools.find((tool) => tool.name === 'get_flag')!.outputSchema!;
    expect(flagSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['note', 'conversation', 'history']) });
  });

  it('reads one flag with its conversation and note as the API gives it, and adds eval cases as the API rules', async () => {
    const client = await connect(token);
    const [listed] = (await api('/flags')).body.flags as { id: string }[];
    const got = await client.callTool({ name: 'get_flag', arguments: { id: listed!.id } });
    const fromApi = (await api(`/flags/${listed!.id}`)).body;
    expect(got.structuredContent).toEqual(fromApi);
    expect(JSON.parse(textOf(got))).toEqual(fromApi);
    expect(fromApi).toMatchObject({ note, conversation: [{ role: 'visitor', text: 'hello' }], history: [{ to_status: 'open' }] });
    const missing = await client.callTool({ name: 'get_flag', arguments: { id: 'flag_unknown' } });
    expect([missing.isError, JSON.parse(textOf(missing)).error.code]).toEqual([true, 'flag_not_found']);

    const turns = ['hi', 'what are your opening hours?'];
    const added = await client.callTool({ name: 'add_eval_case', arguments: { agent: 'support', turns, expected: 'Says "9 to 5"' } });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toMatchObject({
      agent: 'support',
      turns,
      expected: 'Says "9 to 5"',
      origin: { created_by: 'ada@example.com' },
    });
    const { id } = added.structuredContent as { id: string };
    expect((await api(`/evals/cases/${id}`)).body).toEqual(added.structuredContent);

    // The API's rules: no turn at all, or an agent slug it does not take, is its 400 with its code, as a tool error.
    for (const [agent, bad] of [
      ['support', []],
      ['Not A Slug', ['hi']],
    ] as const) {
      const refused = await client.callTool({ name: 'add_eval_case', arguments: { agent, turns: bad, expected: 'x' } });
      const answer = JSON.parse(textOf(refused)) as { error: { code: string } };
      expect([agent, refused.isError, answer.error.code]).toEqual([agent, true, 'invalid_request']);
    }

    // Edited: the fields given replace the case's; a flag's case changes only through its flag.
    const edited = await client.callTool({ name: 'update_eval_case', arguments: { id, expected: 'Says "9am to 5pm"' } });
    expect(edited.structuredContent).toMatchObject({ id, turns, expected: 'Says "9am to 5pm"' });
    expect((await api(`/evals/cases/${id}`)).body).toEqual(edited.structuredContent);
    const flagCase = await client.callTool({ name: 'update_eval_case', arguments: { id: fromApi.eval_case_id, expected: 'x' } });
    expect([flagCase.isError, JSON.parse(textOf(flagCase)).error.code]).toEqual([true, 'case_owned_by_flag']);
  });

  it('publishes a version to live for a developer, and answers a supervisor the API’s 403', async () => {
    const supervisor = await connect(await createMemberWithToken(platform, 'demo', 'sue@example.com', 'supervisor'));
    const refused = await supervisor.callTool({ name: 'publish', arguments: { from: 'feat-welcome' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused)).error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('publish') });
    // Any member adds cases by hand, a supervisor too.
    const added = await supervisor.callTool({ name: 'add_eval_case', arguments: { agent: 'support', turns: ['hey'], expected: 'Greets' } });
    expect(added.structuredContent).toMatchObject({ origin: { created_by: 'sue@example.com' } });
    const cases = (await api('/evals/cases?agent=support')).body.cases as EvalCaseView[];
    const adas = cases.find((c) => 'created_by' in c.origin && c.origin.created_by === 'ada@example.com')!;
    const notTheirs = await supervisor.callTool({ name: 'update_eval_case', arguments: { id: adas.id, expected: 'x' } });
    expect([notTheirs.isError, JSON.parse(textOf(notTheirs)).error.code]).toEqual([true, 'forbidden']);

    const developer = await connect(await createMemberWithToken(platform, 'demo', 'dev@example.com', 'developer'));
    const published = await developer.callTool({ name: 'publish', arguments: { from: 'feat-welcome' } });
    expect(published.isError).toBeFalsy();
    expect(published.structuredContent).toMatchObject({ environment: 'live', version: { number: 2 }, eval_run_id: expect.any(String) });
    expect(JSON.parse(textOf(published))).toEqual(published.structuredContent);
    const live = (await api('/environments')).body.environments.find((e: { name: string }) => e.name === 'live');
    expect(live.version.number).toBe(2);
  });
});
