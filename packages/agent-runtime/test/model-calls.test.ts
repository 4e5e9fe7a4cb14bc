import { anthropicMessage, chatCompletion, type FakeProvider, startFakeProvider } from '@svc/testkit';
import { afterEach, expect, it } from 'vitest';
import { AgentRunner, judge, type ModelCall } from '../src/index.ts';
import { localNetwork, secrets, supportAgent } from './fixtures.ts';

let model: FakeProvider | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** The calls observed, without their durations: what the test can know of them. */
function observer() {
  const calls: ModelCall[] = [];
  return { calls, onModelCall: (call: ModelCall) => void calls.push(call), seen: () => calls.map(({ seconds: _, ...call }) => call) };
}

it("tells the observer of each agent turn's model call, by provider and outcome, with how long it took", async () => {
  model = await startFakeProvider(() => chatCompletion('Hello from the model.'));
  const observed = observer();
  const openai = new AgentRunner(
    supportAgent('openai:gpt-4.1-mini', 'http://127.0.0.1:9'),
    { openai: { baseURL: `${model.url}/v1`, apiKey: 'sk-test' }, onModelCall: observed.onModelCall },
    localNetwork,
  );
  expect((await openai.reply([], 'hi', secrets)).reply).toBe('Hello from the model.');
  // A model that refuses (a 400 is not retried) fails the turn, and the call is an error.
  model.queue({ status: 400, body: { error: { message: 'bad request' } } });
  await expect(openai.reply([], 'hi', secrets)).rejects.toThrow();
  const scripted = new AgentRunner(supportAgent('scripted', 'http://127.0.0.1:9'), { onModelCall: observed.onModelCall }, localNetwork);
  await scripted.reply([], 'hello', secrets);

  expect(observed.seen()).toEqual([
    { provider: 'openai', purpose: 'agent', outcome: 'ok' },
    { provider: 'openai', purpose: 'agent', outcome: 'error' },
    { provider: 'scripted', purpose: 'agent', outcome: 'ok' },
  ]);
  expect(observed.calls.every((call) => call.seconds >= 0)).toBe(true);
});

it("tells the observer of a judge's calls as the judge's", async () => {
  model = await startFakeProvider(() => anthropicMessage('{"verdict":"pass","reasoning":"It said hello."}'));
  const observed = observer();
  const grader = judge('anthropic:claude-sonnet-4-6', {
    anthropic: { baseURL: model.url, apiKey: 'sk-ant-judge' },
    onModelCall: observed.onModelCall,
  });
  const grade = await grader.grade({ messages: [{ role: 'agent', text: 'hello' }], expected: 'Says hello.' });
  expect(grade.verdict).toBe('pass');
  expect(observed.seen()).toEqual([{ provider: 'anthropic', purpose: 'judge', outcome: 'ok' }]);
});
