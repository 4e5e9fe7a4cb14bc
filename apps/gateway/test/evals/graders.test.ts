import { anthropicMessage, chatCompletion, type FakeProvider, type RecordedRequest, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Conformance, conformance } from '../openapi/conformance.ts';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { agentFiles, deployedWorkspace, type EvalsApi } from './setup.ts';

const judge = 'anthropic:claude-sonnet-4-6';

/** What the judge reads of a case: its expected outcome, which says here how the judge grades it. */
const expectedOf = (req: RecordedRequest) => JSON.parse(req.body).messages[0].content as string;

/**
 * The scripted person: the judge passes the first 15 cases and fails the last 10; the person fails 4 of its passes
 * and passes 3 of its failures, and confirms the other 18. Agreement: 18 of 25, 72 %.
 */
const judgePasses = (i: number) => i < 15;
const personPasses = (i: number) => (judgePasses(i) ? i >= 4 : i < 18);

let platform: TestPlatform;
let openai: FakeProvider;
let anthropic: FakeProvider;
let api: Conformance;
let world: EvalsApi;
let runId: string;
const caseIds: string[] = [];

beforeAll(async () => {
  // The agent echoes each turn, and fails on an outage (its case errors); the judge grades as the case's outcome says.
  openai = await startFakeProvider((req) => {
    const text = (JSON.parse(req.body).messages as { role: string; content: string }[]).findLast((m) => m.role === 'user')!.content;
    return text.includes('outage')
      ? { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'The server is overloaded' } } }
      : chatCompletion(`Answer to ${text}.`);
  });
  anthropic = await startFakeProvider((req) =>
    anthropicMessage(
      expectedOf(req).includes('(judge passes)')
        ? '{"verdict":"pass","reasoning":"The agent answered."}'
        : '{"verdict":"fail","reasoning":"The agent did not answer."}',
    ),
  );
  platform = await startPlatform({
    models: { openai: { baseURL: `${openai.url}/v1`, apiKey: 'sk-agent' }, anthropic: { baseURL: anthropic.url, apiKey: 'sk-judge' } },
    evals: { judges: [judge] },
  });
  api = await conformance(platform.url);
  world = await deployedWorkspace(platform, 'acme', agentFiles('support', 'model: openai:gpt-4.1-mini\n'));
  for (let i = 0; i < 25; i++) {
    caseIds.push(
      await world.addCase([`question ${i}`], `Answers question ${i} (judge ${judgePasses(i) ? 'passes' : 'fails'}).`, 'support'),
    );
  }
  caseIds.push(await world.addCase(['is there an outage?'], 'Explains the outage.', 'support'));
  const run = (await world.finished((await world.start()).id)).body;
  expect(run).toMatchObject({ grader: judge, done: 26, passed: 15, failed: 10, errors: 1 });
  runId = run.id;
});

afterAll(async () => {
  await platform?.stop();
  await openai?.close();
  await anthropic?.close();
});

const graders = (query = '') => api.request(`${platform.url}/api/developer/v1/acme/evals/graders${query}`, { token: world.token });
const report = async () => (await world.evals(`/runs/${runId}.md`)).body as string;
const review = async (i: number, verdict: 'pass' | 'fail' | null) => {
  const answer = await world.evals(`/runs/${runId}/results/${caseIds[i]}/override`, { method: 'PUT', json: { verdict } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};

it('measures the judge against people: the share that agreed, its Wilson interval, and each way they disagreed', async () => {
  const before = await graders();
  expect(before.status).toBe(200);
  expect(before.body).toMatchObject({ days: 90, graders: [] });
  expect(await report()).not.toContain('agrees with people');

  for (let i = 0; i < 25; i++) await review(i, personPasses(i) ? 'pass' : 'fail');
  // A person's verdict on a case the judge could not grade is no measure of the judge.
  await review(25, 'pass');

  const { status, body } = await graders();
  expect(status).toBe(200);
  expect(Date.now() - Date.parse(body.since)).toBeGreaterThanOrEqual(90 * 24 * 3600 * 1000);
  expect(body.graders).toEqual([
    {
      grader: judge,
      reviewed: 25,
      agreed: 18,
      agreement: 0.72,
      interval: { low: expect.any(Number), high: expect.any(Number) },
      grader_pass_person_fail: 4,
      grader_fail_person_pass: 3,
    },
  ]);
  // By hand, with z = 1.96, p = 0.72, n = 25: (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n) = 0.5242 and 0.8572.
  expect(body.graders[0].interval.low).toBeCloseTo(0.5242, 3);
  expect(body.graders[0].interval.high).toBeCloseTo(0.8572, 3);

  // Any member reads it.
  const supervisor = await world.member('supervisor');
  const read = await api.request(`${platform.url}/api/developer/v1/acme/evals/graders?days=365`, { token: supervisor });
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ days: 365, graders: [{ grader: judge, reviewed: 25, agreed: 18 }] });
  for (const days of ['0', '366', 'many']) {
    const refused = await graders(`?days=${days}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request', field: 'days' });
  }
});

it("the run's report warns of a judge below 80 % over 20 reviews or more, and not once it agrees more", async () => {
  expect(await report()).toContain(
    `Judge ${judge} agrees with people on 72 % of 25 reviewed results (95 % CI 52–86 %): read its failures with care.`,
  );
  // The judge's passes that people failed, given back to the judge: 18 of 21 agree, 86 %.
  for (let i = 0; i < 4; i++) await review(i, null);
  expect((await graders()).body.graders[0]).toMatchObject({ reviewed: 21, agreed: 18, grader_pass_person_fail: 0 });
  expect(await report()).not.toContain('agrees with people');
});

it('counts a case that people give verdicts on at once as one review, and none once it is taken back', async () => {
  // The judge passed case 0; its review was taken back above. Eight verdicts on it race: one of them stands.
  await Promise.all(['pass', 'fail', 'pass', 'fail', 'pass', 'fail', 'pass', 'fail'].map((v) => review(0, v as 'pass' | 'fail')));
  const raced = (await graders()).body.graders[0];
  expect(raced).toMatchObject({ reviewed: 22, grader_fail_person_pass: 3 });
  expect(raced.agreed + raced.grader_pass_person_fail).toBe(19);
  await review(0, null);
  expect((await graders()).body.graders[0]).toMatchObject({ reviewed: 21, agreed: 18, grader_pass_person_fail: 0 });
});
