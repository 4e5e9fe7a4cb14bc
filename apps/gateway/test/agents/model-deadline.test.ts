import { request, type SilentPeer, startSilentPeer } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { agentFiles, deployedWorkspace } from '../evals/setup.ts';

let platform: TestPlatform;
let model: SilentPeer;
beforeAll(async () => {
  // The agents' model provider takes every call and never answers.
  model = await startSilentPeer();
  platform = await startPlatform({ models: { openai: { baseURL: `${model.url}/v1`, apiKey: 'sk-agent' }, timeoutMs: 500 } });
});
afterAll(async () => {
  await platform.stop();
  await model.close();
});

const openAiAgent = agentFiles('support', 'model: openai:gpt-4.1-mini\n');

it("answers a chat's message 504 model_timeout once the agent's model has said nothing for SVC_MODEL_TIMEOUT_MS, keeping nothing", async () => {
  const world = await deployedWorkspace(platform, 'acme', openAiAgent);
  const chats = `${platform.url}/api/v1/acme/chats`;
  const chat = (await request(chats, { token: world.token, json: { agent: 'support', environment: 'preview' } })).body;
  const sent = await request(`${chats}/${chat.chat_id}/messages`, { token: world.token, json: { text: 'hello' } });
  expect(sent.status).toBe(504);
  expect(sent.body.error).toEqual({
    code: 'model_timeout',
    message: "the agent's model openai:gpt-4.1-mini did not answer within 0.5 s; send the message again",
  });
  expect(model.connections).toBeGreaterThanOrEqual(1);
  expect((await world.api(`/chats/${chat.chat_id}`)).body.messages).toEqual([]);
});

it("finishes an eval run whose agent's model says nothing, its case an error naming the deadline", async () => {
  const world = await deployedWorkspace(platform, 'globex', openAiAgent);
  const id = await world.addCase(['hello', 'are you there?'], 'Says "hello".', 'support');
  const run = (await world.finished((await world.start()).id)).body;
  expect(run).toMatchObject({ done: 1, errors: 1 });
  expect(run.results[0]).toMatchObject({ case_id: id, verdict: 'error', reasoning: "the agent's model failed: no answer within 500 ms" });
});
