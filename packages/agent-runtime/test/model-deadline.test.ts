import { startFakeProvider, startSilentPeer } from '@svc/testkit';
import { expect, it } from 'vitest';
import { AgentRunner, judge, ModelTimeout, type ProviderSettings } from '../src/index.ts';
import { localNetwork, secrets, supportAgent } from './fixtures.ts';

const at = {
  openai: (url: string): ProviderSettings => ({ openai: { baseURL: `${url}/v1`, apiKey: 'sk-test' } }),
  anthropic: (url: string): ProviderSettings => ({ anthropic: { baseURL: url, apiKey: 'sk-ant-test' } }),
};

it.each([
  ['openai:gpt-4.1-mini', at.openai],
  ['anthropic:claude-sonnet-4-6', at.anthropic],
])('a turn of %s fails with ModelTimeout once a provider that took the call has said nothing for the deadline', async (model, settings) => {
  const silent = await startSilentPeer();
  const runner = new AgentRunner(supportAgent(model, 'http://127.0.0.1:9'), { ...settings(silent.url), timeoutMs: 500 }, localNetwork);
  const failure = await runner.reply([], 'Where is my order A-17?', secrets).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ModelTimeout);
  expect(failure).toMatchObject({ model, timeoutMs: 500, message: 'no answer within 500 ms' });
  expect(silent.connections).toBeGreaterThanOrEqual(1);
  await silent.close();
});

it("the deadline covers the client's retries and its waits between them, not each attempt alone", async () => {
  // Overloaded, and asking for two seconds between attempts: the client would wait them out, four times.
  const overloaded = await startFakeProvider(() => ({
    status: 503,
    headers: { 'retry-after': '2' },
    body: { error: { message: 'The server is overloaded' } },
  }));
  const runner = new AgentRunner(
    supportAgent('openai:gpt-4.1-mini', 'http://127.0.0.1:9'),
    { ...at.openai(overloaded.url), timeoutMs: 500 },
    localNetwork,
  );
  await expect(runner.reply([], 'hello', secrets)).rejects.toThrow(ModelTimeout);
  expect(overloaded.received).toBe(1);
  await overloaded.close();
});

it('a judge that says nothing makes the case an error naming the judge and the deadline', async () => {
  const silent = await startSilentPeer();
  const grade = await judge('anthropic:claude-sonnet-4-6', { ...at.anthropic(silent.url), timeoutMs: 500 }).grade({
    messages: [
      { role: 'visitor', text: 'hi' },
      { role: 'agent', text: 'Hello!' },
    ],
    expected: 'Greets the visitor.',
  });
  expect(grade).toMatchObject({ verdict: 'error', reasoning: 'the judge anthropic:claude-sonnet-4-6 failed: no answer within 500 ms' });
  await silent.close();
});
