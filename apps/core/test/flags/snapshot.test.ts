import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/agents/store.ts';
import { agentFiles, flagWorld } from './setup.ts';

const trace = {
  model: 'scripted',
  family: 'scripted',
  tool_calls: [
    {
      name: 'order_status',
      arguments: { id: 'A-1' },
      request: { method: 'GET', url: 'http://shop.test/orders/A-1?key=[secret:SHOP_KEY]' },
      status: 200,
      response: { status: 'shipped' },
      error: null,
      duration_ms: 12,
    },
  ],
  knowledge_lookups: [{ query: 'shipping', hits: [{ path: 'knowledge/shipping.md', text: 'We ship in 2 days.' }] }],
  tokens: { input: 120, output: 30 },
  rounds: 2,
};

/** A chat with `before` messages (alternating, the last the visitor's), then the agent's reply; its id. */
async function chatWith(before: number) {
  const world = await flagWorld();
  const chat = await world.services.chats.create(world.workspace.id, { agent: 'support', environment: 'live', channel: 'whatsapp' });
  const at = (i: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + i * 1000).toISOString();
  const messages: ChatMessage[] = Array.from({ length: before }, (_, i) => {
    const role = (before - 1 - i) % 2 === 0 ? 'visitor' : 'agent';
    return { id: `msg_${i}`, chatId: chat.chat_id, role, text: `m${i + 1}`, trace: role === 'agent' ? trace : null, createdAt: at(i) };
  });
  messages.push({ id: 'msg_reply', chatId: chat.chat_id, role: 'agent', text: 'the reply', trace, createdAt: at(before) });
  await world.services.store.chats.addMessages(messages);
  return { ...world, chatId: chat.chat_id };
}

describe('what a flag keeps of the chat', () => {
  it.each([
    [1, ['m1']],
    [10, ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10']],
    [11, ['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']],
    [25, ['m16', 'm17', 'm18', 'm19', 'm20', 'm21', 'm22', 'm23', 'm24', 'm25']],
  ])('with %i messages before the reply, the last 10 of them at most, oldest first', async (before, texts) => {
    const { services, workspace, owner } = await chatWith(before);
    const flag = await services.flags.create(workspace, owner.email, { message_id: 'msg_reply', note: 'x' });
    expect(flag.conversation.map((m) => m.text)).toEqual(texts);
    expect(flag.conversation.at(-1)).toMatchObject({
      role: 'visitor',
      created_at: new Date(Date.parse('2026-03-01T10:00:00Z') + (before - 1) * 1000).toISOString(),
    });
    // The case replays every visitor turn up to the one the reply answered, not only those shown.
    const evalCase = await services.store.evalCases.get(workspace.id, flag.eval_case_id!);
    const visitorTurns = Array.from({ length: before }, (_, i) => i)
      .filter((i) => (before - 1 - i) % 2 === 0)
      .map((i) => `m${i + 1}`);
    expect(evalCase?.turns).toEqual(visitorTurns);
  });

  it('the chat, the version, the reply and its turn (tool calls, knowledge lookups, tokens) as they were', async () => {
    const { services, workspace, owner, chatId } = await chatWith(3);
    const live = (await services.store.environments.get(workspace.id, 'live'))!.version!;
    const flag = await services.flags.create(workspace, owner.email, { message_id: 'msg_reply', note: 'x' });
    expect(flag).toMatchObject({
      agent: 'support',
      environment: 'live',
      version: { id: live.id, number: 1 },
      channel: 'whatsapp',
      chat_id: chatId,
      message_id: 'msg_reply',
      reply: 'the reply',
      turn: { tool_calls: trace.tool_calls, knowledge: trace.knowledge_lookups, tokens: { input: 120, output: 30 } },
    });
  });

  it('stays as it was when the chat grows and a new version goes live', async () => {
    const { services, workspace, owner, conversation } = await flagWorld();
    const { chatId, replies } = await conversation(['hi', 'refund please']);
    const flagged = await services.flags.create(workspace, owner.email, { message_id: replies[0]!, note: 'x' });
    await services.chats.send(workspace.id, chatId, 'more');
    await services.deployments.push(workspace, owner.id, {
      environment: 'preview',
      files: { ...agentFiles, 'agents/support/instructions.md': 'Help more.' },
    });
    await services.deployments.publish(workspace, 'preview');
    const later = await services.flags.get(workspace, flagged.id);
    expect(later.conversation.map((m) => m.text)).toEqual(['hi']);
    expect(later.version.number).toBe(1);
    expect(later.reply).toBe(flagged.reply);
  });
});
