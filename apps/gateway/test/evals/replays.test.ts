import { anthropicMessage, chatCompletion, type FakeProvider, type RecordedRequest, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { agentFiles, deployedWorkspace } from './setup.ts';

/** The last visitor message an OpenAI-compatible request carries. */
const lastUserText = (req: RecordedRequest) =>
  (JSON.parse(req.body).messages as { role: string; content: string }[]).findLast((m) => m.role === 'user')!.content;

describe('a run graded by the deterministic grader', () => {
  let platform: TestPlatform;
  let backend: FakeProvider;
  beforeAll(async () => {
    backend = await startFakeProvider((req) => ({ status: 200, body: { status: `shipped (${req.path.split('/').pop()})` } }));
    platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
  });
  afterAll(async () => {
    await platform.stop();
    await backend.close();
  });

  it("replays each case's last 8 turns in a fresh replay chat, its tools reaching the backend with the environment's secrets", async () => {
    const world = await deployedWorkspace(
      platform,
      'acme',
      agentFiles(
        'support',
        `model: scripted
tools:
  - name: order_status
    description: Order status
    url: "${backend.url}/orders/{{args.id}}"
    headers: { X-Api-Key: "{{secrets.SHOP_KEY}}" }
scripted:
  rules:
    - when: "order ([\\\\w-]+)"
      tool: order_status
      args: { id: "{{match.1}}" }
      reply: "Order {{match.1}} is {{tool.status}}."
    - when: "refund"
      reply: "Refunds take 5 days."
  fallback: "Hello, turn noted."
`,
      ),
    );
    expect((await world.api('/environments/preview/secrets/SHOP_KEY', { method: 'PUT', json: { value: 'shop-key-preview' } })).status).toBe(
      204,
    );
    const shipped = await world.addCase(['hi', 'where is order A-1?'], 'Says "SHIPPED".', 'support');
    const lastOnly = await world.addCase(['where is order A-2?', 'and a refund?'], 'Says "shipped" and "refund".', 'support');
    const unquoted = await world.addCase(['refund please'], 'Answers politely.', 'support');
    const long = await world.addCase(
      Array.from({ length: 10 }, (_, i) => `turn ${i + 1}`),
      'Says "turn noted".',
      'support',
    );

    const started = await world.start();
    expect(started).toMatchObject({ environment: 'preview', cases: 4, finished: false });
    const run = (await world.finished(started.id)).body;
    expect(run).toMatchObject({ status: 'finished', grader: 'deterministic', cases: 4, done: 4, passed: 2, failed: 1, errors: 1 });
    const result = (id: string) => run.results.find((r: { case_id: string }) => r.case_id === id);
    expect(result(shipped)).toMatchObject({ verdict: 'pass', reasoning: 'The last reply says "SHIPPED".', judge: null });
    expect(result(lastOnly)).toMatchObject({ verdict: 'fail', reasoning: 'The last reply does not say "shipped".' });
    expect(result(unquoted)).toMatchObject({ verdict: 'error', reasoning: 'needs a quoted phrase or a judge model' });

    // The replay: a chat of its own with the visitor turns and the agent's traced replies, kept out of the inbox.
    const chat = (await world.api(`/chats/${result(shipped).replay_chat_id}`)).body;
    expect(chat.messages.map((m: { role: string; text: string }) => [m.role, m.text])).toEqual([
      ['visitor', 'hi'],
      ['agent', 'Hello, turn noted.'],
      ['visitor', 'where is order A-1?'],
      ['agent', 'Order A-1 is shipped (A-1).'],
    ]);
    expect(chat.messages[3].trace.tool_calls[0]).toMatchObject({ name: 'order_status', status: 200 });
    expect(JSON.stringify(chat.messages)).not.toContain('shop-key-preview');
    expect(backend.requests.map((r) => r.headers['x-api-key'])).toEqual(['shop-key-preview', 'shop-key-preview']);
    const replayed = (await world.api(`/chats/${result(long).replay_chat_id}`)).body.messages;
    expect(replayed.filter((m: { role: string }) => m.role === 'visitor').map((m: { text: string }) => m.text)).toEqual(
      Array.from({ length: 8 }, (_, i) => `turn ${i + 3}`),
    );
    expect((await world.api('/chats')).body).toMatchObject({ conversations: 0, chats: [] });
  });
});

describe('a run with judge models', () => {
  let platform: TestPlatform;
  let openai: FakeProvider;
  let anthropic: FakeProvider;
  beforeAll(async () => {
    // The agent's model answers each turn by echoing it, unless told to fail; the judge passes whatever it reads.
    openai = await startFakeProvider((req) =>
      lastUserText(req).includes('outage')
        ? { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'The server is overloaded' } } }
        : chatCompletion(`Answer to ${lastUserText(req)}.`),
    );
    anthropic = await startFakeProvider(() => anthropicMessage('{"verdict":"pass","reasoning":"The agent answered every turn."}'));
    platform = await startPlatform({
      models: { openai: { baseURL: `${openai.url}/v1`, apiKey: 'sk-agent' }, anthropic: { baseURL: anthropic.url, apiKey: 'sk-judge' } },
      evals: { judges: ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-6'] },
    });
  });
  afterAll(async () => {
    await platform.stop();
    await openai.close();
    await anthropic.close();
  });

  it('judges an OpenAI agent with the first judge of another family, its history growing turn by turn', async () => {
    const world = await deployedWorkspace(platform, 'acme', agentFiles('support', 'model: openai:gpt-4.1-mini\n'));
    const id = await world.addCase(['one', 'two', 'three'], 'Answers each turn.', 'support');
    const run = (await world.finished((await world.start()).id)).body;
    expect(run).toMatchObject({ grader: 'anthropic:claude-sonnet-4-6', agent_models: ['openai:gpt-4.1-mini'], passed: 1 });
    expect(run.results[0]).toMatchObject({
      case_id: id,
      verdict: 'pass',
      reasoning: 'The agent answered every turn.',
      judge: 'anthropic:claude-sonnet-4-6',
      tokens: { input: 300, output: 30 },
    });
    const agentCalls = openai.requests.map((r) =>
      JSON.parse(r.body)
        .messages.map((m: { role: string }) => m.role)
        .join(','),
    );
    expect(agentCalls).toEqual(['system,user', 'system,user,assistant,user', 'system,user,assistant,user,assistant,user']);
    expect(anthropic.requests).toHaveLength(1);
    const judged = JSON.parse(anthropic.requests[0]!.body);
    expect(judged.model).toBe('claude-sonnet-4-6');
    expect(judged.messages[0].content).toContain('Visitor: three\nAgent: Answer to three.');
    expect(judged.messages[0].content).toContain('Expected outcome: Answers each turn.');
  });

  it("waits out a 429 of the agent's model as long as its Retry-After says, and the case still passes", async () => {
    const world = await deployedWorkspace(platform, 'initech', agentFiles('support', 'model: openai:gpt-4.1-mini\n'));
    await world.addCase(['hello'], 'Greets the visitor.', 'support');
    const before = openai.requests.length;
    openai.queue({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached' } } });
    const run = (await world.finished((await world.start()).id)).body;
    expect(run).toMatchObject({ passed: 1, errors: 0 });
    const [limited, answered] = openai.requests.slice(before);
    expect(openai.replies[before]!.status).toBe(429);
    expect(answered!.receivedAt - limited!.receivedAt).toBeGreaterThanOrEqual(1000);
  });

  it("makes a case an error with the provider's message once its model still fails after the retries", async () => {
    const world = await deployedWorkspace(platform, 'globex', agentFiles('support', 'model: openai:gpt-4.1-mini\n'));
    const before = openai.received;
    await world.addCase(['hello', 'is there an outage?'], 'Explains the outage.', 'support');
    const run = (await world.finished((await world.start()).id)).body;
    expect(run).toMatchObject({ errors: 1, done: 1 });
    expect(run.results[0].reasoning).toBe("the agent's model failed: 503 The server is overloaded");
    expect(openai.received - before).toBe(1 + 5); // the first turn, then the failing one and its 4 retries
    const chat = (await world.api(`/chats/${run.results[0].replay_chat_id}`)).body;
    expect(chat.messages.map((m: { role: string }) => m.role)).toEqual(['visitor', 'agent', 'visitor']);
  });
});
