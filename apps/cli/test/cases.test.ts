import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalCaseView } from '@svc/domain';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemberWithToken, createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let token: string;
const envOf = (as: string) => ({ SVC_BASE_URL: platform.url, SVC_TOKEN: as, SVC_WORKSPACE: 'demo', XDG_CONFIG_HOME: tempDir() });
const svc = (args: string[], as = token, cwd?: string) => runSvc(args, envOf(as), undefined, cwd);
const api = (path: string, init: { json?: unknown; method?: string; token?: string } = {}) =>
  request(`${platform.url}/api/developer/v1/demo/evals/cases${path}`, { token, ...init });
/** The cases of an agent, as the API has them (one page: fewer than a hundred here). */
const casesOf = async (agent: string): Promise<EvalCaseView[]> => (await api(`?agent=${agent}&limit=100`)).body.cases;

beforeAll(async () => {
  platform = await startPlatform();
  token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'demo' } })).status).toBe(201);
});
afterAll(async () => {
  await platform?.stop();
  removeTempDirs();
});

describe('svc cases', () => {
  it('adds cases from --turn and from a YAML or JSON file, lists each with its question, and removes one', async () => {
    const question = 'Where is my order #1234? It has been two weeks and nothing has come, not even an email';
    const added = await svc([
      'cases',
      'add',
      '--agent',
      'support',
      '--turn',
      question,
      '--turn',
      'hello?',
      '--expected',
      'Asks for "the order number"',
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const id = /^Added eval case (\S+) to support \(2 turns\); every run replays it from now on\.\n$/.exec(added.stdout)?.[1];
    expect((await api(`/${id}`)).body).toMatchObject({
      agent: 'support',
      turns: [question, 'hello?'],
      expected: 'Asks for "the order number"',
    });

    const folder = tempDir();
    writeFileSync(join(folder, 'refund.yaml'), '- I want a refund\n- "order 77: it came broken"\n');
    writeFileSync(join(folder, 'hours.json'), JSON.stringify(['When are you open?']));
    const fromYaml = await svc(
      ['cases', 'add', '--agent', 'sales', '--file', 'refund.yaml', '--expected', 'Offers a refund', '--json'],
      token,
      folder,
    );
    expect(fromYaml.code).toBe(0);
    expect(JSON.parse(fromYaml.stdout)).toMatchObject({ agent: 'sales', turns: ['I want a refund', 'order 77: it came broken'] });
    expect((await svc(['cases', 'add', '--agent', 'sales', '--file', join(folder, 'hours.json'), '--expected', 'Says 9 to 5'])).code).toBe(
      0,
    );

    const listed = await svc(['cases', 'list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +AGENT +TURNS +ORIGIN +QUESTION$/);
    expect(lines.slice(1).map((line) => line.split(/ {2,}/).slice(1))).toEqual([
      ['support', '2', 'ada@example.com', 'Where is my order #1234? It has been two weeks and nothing…'],
      ['sales', '2', 'ada@example.com', 'I want a refund'],
      ['sales', '1', 'ada@example.com', 'When are you open?'],
    ]);
    expect(lines[1]!.startsWith(`${id} `)).toBe(true);
    const sales = JSON.parse((await svc(['cases', 'list', '--agent', 'sales', '--json'])).stdout) as { cases: EvalCaseView[] };
    expect(sales.cases.map((c) => c.turns[0])).toEqual(['I want a refund', 'When are you open?']);

    expect(await svc(['cases', 'rm', id!])).toMatchObject({ code: 0, stdout: `Removed eval case ${id}.\n` });
    expect((await casesOf('support')).map((c) => c.id)).not.toContain(id);
  });

  it('lists every case, page after page', async () => {
    const before = (await casesOf('support')).length + (await casesOf('sales')).length;
    for (let i = 0; i < 101; i++) {
      expect((await api('', { json: { agent: 'paged', turns: [`question ${i}`], expected: 'x' } })).status).toBe(201);
    }
    const listed = JSON.parse((await svc(['cases', 'list', '--agent', 'paged', '--json'])).stdout) as { cases: EvalCaseView[] };
    expect(listed.cases.map((c) => c.turns[0])).toEqual(Array.from({ length: 101 }, (_, i) => `question ${i}`));
    const table = (await svc(['cases', 'list'])).stdout.trimEnd().split('\n');
    expect(table).toHaveLength(1 + before + 101);
  });

  it("refuses what the API refuses, as the CLI's other commands do, roles included", async () => {
    // The API's rules: its code, exit 1; with --json its answer.
    const empty = await svc(['cases', 'add', '--agent', 'support', '--turn', 'hi', '--expected', '']);
    expect([empty.code, empty.stdout]).toEqual([1, '']);
    expect(empty.stderr).toMatch(/^svc: .*\(invalid_request\)\n$/);
    const badSlug = await svc(['cases', 'add', '--agent', 'Not A Slug', '--turn', 'hi', '--expected', 'x', '--json']);
    expect([badSlug.code, JSON.parse(badSlug.stdout).error.code]).toEqual([1, 'invalid_request']);
    const unknown = await svc(['cases', 'rm', 'case_unknown']);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/^svc: .*\(eval_case_not_found\)\n$/)]);

    // Usage: turns from neither or both places, or a file that is not a list of them; exit 2.
    const folder = tempDir();
    writeFileSync(join(folder, 'case.yaml'), 'turns: [hi]\n');
    for (const args of [
      ['--expected', 'x'],
      ['--turn', 'hi', '--file', 'case.yaml', '--expected', 'x'],
      ['--file', 'case.yaml', '--expected', 'x'],
      ['--file', 'missing.yaml', '--expected', 'x'],
    ]) {
      const refused = await svc(['cases', 'add', '--agent', 'support', ...args], token, folder);
      expect([args.join(' '), refused.code, refused.stderr.startsWith('svc: ')]).toEqual([args.join(' '), 2, true]);
    }
    expect(await casesOf('support')).toEqual([]);

    // A supervisor adds cases, and removes their own, but not another member's.
    const supervisor = await createMemberWithToken(platform, 'demo', 'sue@example.com', 'supervisor');
    const theirs = await svc(['cases', 'add', '--agent', 'support', '--turn', 'hi', '--expected', 'Greets', '--json'], supervisor);
    expect(JSON.parse(theirs.stdout)).toMatchObject({ origin: { created_by: 'sue@example.com' } });
    const adas = JSON.parse((await svc(['cases', 'add', '--agent', 'support', '--turn', 'yo', '--expected', 'Greets', '--json'])).stdout);
    const forbidden = await svc(['cases', 'rm', adas.id], supervisor);
    expect([forbidden.code, forbidden.stderr]).toEqual([
      1,
      "svc: only developers and owners may change and remove anyone's eval cases; you are supervisor (forbidden)\n",
    ]);
    expect(await svc(['cases', 'rm', JSON.parse(theirs.stdout).id], supervisor)).toMatchObject({ code: 0 });
    expect((await api(`/${adas.id}`)).status).toBe(200);

    // Someone with no role in the workspace adds nothing; no token at all is exit 4.
    const stranger = await createUserWithToken(platform, 'eve@example.com');
    const outsider = await svc(['cases', 'add', '--agent', 'support', '--turn', 'hi', '--expected', 'x'], stranger);
    expect([outsider.code, outsider.stderr]).toEqual([1, expect.stringMatching(/\(workspace_not_found\)\n$/)]);
    const signedOut = await runSvc(['cases', 'list'], { ...envOf(token), SVC_TOKEN: undefined });
    expect(signedOut.code).toBe(4);
    expect((await casesOf('support')).map((c) => c.origin)).toEqual([{ created_by: 'ada@example.com' }]);
  });
});
