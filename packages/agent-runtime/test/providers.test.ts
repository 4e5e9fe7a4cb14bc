import { type FakeProvider, type RecordedRequest, startFakeProvider } from '@svc/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentRunner, parseBundle } from '../src/index.ts';
import { localNetwork, secrets, supportAgent } from './fixtures.ts';

let backend: FakeProvider;
let model: FakeProvider | undefined;
beforeEach(async () => {
  // The customer's backend: answers order lookups, and echoes the credential back to test redaction.
  backend = await startFakeProvider((req) => ({
    status: 200,
    body: { order: req.path.split('/').pop(), status: 'shipped', echoed_auth: req.headers.authorization },
  }));
});
afterEach(async () => {
  await backend.close();
  await model?.close();
  model = undefined;
});

/** An OpenAI-compatible server: asks for the tool first, then answers from the tool's result. */
function openAiReply(req: RecordedRequest) {
  const body = JSON.parse(req.body);
  const toolMessage = body.messages.find((m: { role: string }) => m.role === 'tool');
  const message = toolMessage
    ? { role: 'assistant', content: `Your order is ${JSON.parse(toolMessage.content).body.status}.` }
    : {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_a1', type: 'function', function: { name: 'order_status', arguments: '{"order_id":"A-17"}' } }],
      };
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: toolMessage ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

/** Anthropic's Messages API: a tool_use block first, then text after the tool_result. */
function anthropicReply(req: RecordedRequest) {
  const body = JSON.parse(req.body);
  const result = body.messages
    .flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
    .find((b: { type: string }) => b.type === 'tool_result');
  const content = result
    ? [{ type: 'text', text: `Order status: ${JSON.parse(result.content).body.status}.` }]
    : [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'order_status', input: { order_id: 'A-17' } },
      ];
  return {
    status: 200,
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: result ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 10 },
    },
  };
}

describe('the OpenAI-compatible provider', () => {
  it('runs a tool-calling round against the real client and traces the call, with the secret redacted', async () => {
    model = await startFakeProvider(openAiReply);
    const runner = new AgentRunner(
      supportAgent('openai:gpt-4.1-mini', backend.url),
      { openai: { baseURL: `${model.url}/v1`, apiKey: 'sk-test' } },
      localNetwork,
    );
    expect(runner.family).toBe('openai');
    const { reply, trace } = await runner.reply(
      [
        { role: 'visitor', text: 'hi' },
        { role: 'agent', text: 'Hello!' },
      ],
      'Where is my order A-17?',
      secrets,
    );
    expect(reply).toBe('Your order is shipped.');

    const [first, second] = model.requests;
    expect(first!.path).toBe('/v1/chat/completions');
    expect(first!.headers.authorization).toBe('Bearer sk-test');
    const firstBody = JSON.parse(first!.body);
    expect(firstBody.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(firstBody.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['order_status', 'search_knowledge']);
    const secondBody = JSON.parse(second!.body);
    expect(secondBody.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_a1' });
    expect(secondBody.messages.at(-2).tool_calls[0].function.name).toBe('order_status');

    expect(backend.requests[0]!.path).toBe('/orders/A-17');
    expect(backend.requests[0]!.headers.authorization).toBe('Bearer sk-backend-very-secret');
    expect(trace.tool_calls).toEqual([
      expect.objectContaining({
        name: 'order_status',
        arguments: { order_id: 'A-17' },
        status: 200,
        response: expect.objectContaining({ status: 'shipped' }),
      }),
    ]);
    expect(trace.tokens).toEqual({ input: 200, output: 40 });
    expect(JSON.stringify(trace)).not.toContain('sk-backend-very-secret');
    expect(JSON.stringify(trace)).toContain('[secret:BACKEND_TOKEN]');
  });

  it('knows the family of models served by vLLM or Ollama', () => {
    expect(new AgentRunner(supportAgent('openai:meta-llama/Llama-3.1-8B-Instruct', backend.url), {}, localNetwork).family).toBe('meta');
    expect(new AgentRunner(supportAgent('openai:qwen2.5:7b', backend.url), {}, localNetwork).family).toBe('qwen');
  });
});

describe('the Anthropic provider', () => {
  it('runs a tool_use round against the real client, sending the result back as tool_result', async () => {
    model = await startFakeProvider(anthropicReply);
    const runner = new AgentRunner(
      supportAgent('anthropic:claude-sonnet-4-5', backend.url),
      { anthropic: { baseURL: model.url, apiKey: 'sk-ant-test' } },
      localNetwork,
    );
    expect(runner.family).toBe('anthropic');
    const { reply, trace } = await runner.reply([], 'Where is my order A-17?', secrets);
    expect(reply).toBe('Order status: shipped.');
    const [first, second] = model.requests;
    expect(first!.path).toBe('/v1/messages');
    // The SDK sends the key as x-api-key or (newer versions) as a bearer token.
    expect(String(first!.headers['x-api-key'] ?? first!.headers.authorization)).toContain('sk-ant-test');
    const firstBody = JSON.parse(first!.body);
    expect(firstBody.system).toBe('You are the support agent of Acme. Be brief.');
    expect(firstBody.tools[0]).toMatchObject({ name: 'order_status', input_schema: { type: 'object' } });
    const lastMessage = JSON.parse(second!.body).messages.at(-1);
    expect(lastMessage).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] });
    expect(trace.tokens).toEqual({ input: 100, output: 20 });
    expect(trace.tool_calls[0]!.status).toBe(200);
  });
});

describe('the scripted provider', () => {
  it('calls tools and searches knowledge by its rules, deterministically and without tokens', async () => {
    const runner = new AgentRunner(supportAgent('scripted', backend.url), {}, localNetwork);
    const order = await runner.reply([], 'where is order B-2?', secrets);
    expect(order.reply).toBe('Order B-2 is shipped.');
    expect(order.trace.tool_calls[0]!.request.url).toBe(`${backend.url}/orders/B-2`);
    const returns = await runner.reply([], 'Can I return these shoes?', secrets);
    expect(returns.reply).toBe('Returns are accepted within 30 days of delivery, with the receipt.');
    expect(returns.trace.knowledge_lookups[0]).toMatchObject({
      query: 'return policy',
      hits: [expect.objectContaining({ path: 'knowledge/returns.md' })],
    });
    expect((await runner.reply([], 'hello', secrets)).reply).toBe('I can help with orders and returns.');
    expect(order.trace.tokens).toEqual({ input: 0, output: 0 });
  });
});

describe('scripted replies after a failed tool call or an empty search', () => {
  const agent = (onError: string) =>
    parseBundle({
      'svc.yaml': 'workspace: acme\n',
      'agents/support/agent.yaml': `
name: Support
model: scripted
tools:
  - name: order_status
    description: The status of an order
    url: "${backend.url}/orders/{{args.order_id}}"
scripted:
  rules:
    - when: "order ([\\\\w-]+)"
      tool: order_status
      args: { order_id: "{{match.1}}" }
      reply: "Order {{match.1}} is {{tool.status}}; expected delivery {{tool.delivery_date}}."
${onError}
    - when: "warranty"
      search: "warranty"
      reply: "{{knowledge}}"
  fallback: "I can check an order for you."
`,
      'agents/support/instructions.md': 'Help.',
      'agents/support/knowledge/returns.md': 'Returns are accepted within 30 days.',
    }).agents[0]!;
  const onError = '      on_error: "I could not look up order {{match.1}} just now."';

  it.each([
    ['404', { status: 404, body: { error: 'no order Z-9999' } }],
    ['401', { status: 401, body: { error: 'unauthorized' } }],
    ['500', { status: 500, body: 'oops' }],
    ['an answer without the fields the reply names', { status: 200, body: { state: 'shipped' } }],
  ])("use the rule's on_error on %s, else the agent's fallback", async (_, failure) => {
    backend.queue(failure, failure);
    const withOnError = await new AgentRunner(agent(onError), {}, localNetwork).reply([], 'where is order Z-9999?', {});
    expect(withOnError.reply).toBe('I could not look up order Z-9999 just now.');
    const withoutOnError = await new AgentRunner(agent(''), {}, localNetwork).reply([], 'where is order Z-9999?', {});
    expect(withoutOnError.reply).toBe('I can check an order for you.');
  });

  it('use them when the backend is unreachable or refused, and when a search finds nothing', async () => {
    const refused = await new AgentRunner(agent(onError), {}, { allowPrivateNetworks: false, platformPorts: new Set() }).reply(
      [],
      'order Z-9999',
      {},
    );
    expect(refused.trace.tool_calls[0]!.error).toMatch(/^refused: /);
    expect(refused.reply).toBe('I could not look up order Z-9999 just now.');
    const search = await new AgentRunner(agent(onError), {}, localNetwork).reply([], 'is there a warranty?', {});
    expect(search.trace.knowledge_lookups[0]!.hits).toEqual([]);
    expect(search.reply).toBe('I can check an order for you.');
    backend.queue({ status: 200, body: { status: 'shipped', delivery_date: 'tomorrow' } });
    expect((await new AgentRunner(agent(onError), {}, localNetwork).reply([], 'order A-1', {})).reply).toBe(
      'Order A-1 is shipped; expected delivery tomorrow.',
    );
  });
});

describe('tools', () => {
  it('record a timeout in the trace instead of failing the turn', async () => {
    const slow = await startFakeProvider(() => ({ status: 200, body: { status: 'shipped' }, delayMs: 5_000 }));
    const agent = supportAgent('scripted', slow.url);
    const orderStatus = agent.manifest.tools[0]!;
    orderStatus.timeout_ms = 200; // the backend answers, but only after 5 s
    const { reply, trace } = await new AgentRunner(agent, {}, localNetwork).reply([], 'order C-3', secrets);
    expect(slow.requests).toHaveLength(1);
    expect(trace.tool_calls[0]).toMatchObject({ status: null, error: 'timed out after 200 ms' });
    expect(reply).toBe('I can help with orders and returns.');
    await slow.close();
  });
});
