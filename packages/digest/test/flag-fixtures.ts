import type { FlagView } from '@svc/domain';

const at = (minute: number) => `2026-06-01T12:${String(minute).padStart(2, '0')}:00.000Z`;

/** An open flag with a note on the demo support agent: a wrong answer about returns, with one lookup. */
export function flag(overrides: Partial<FlagView> = {}): FlagView {
  return {
    id: 'flg_01',
    status: 'open',
    agent: 'support',
    environment: 'live',
    version: { id: 'ver_03', number: 3 },
    channel: 'whatsapp',
    chat_id: 'chat_01',
    message_id: 'msg_04',
    conversation: [
      { role: 'visitor', text: 'Hi! I bought shoes last month.', created_at: at(0) },
      { role: 'agent', text: 'Hello! How can I help with your order?', created_at: at(1) },
      { role: 'visitor', text: 'Can I return them after 40 days?', created_at: at(2) },
    ],
    reply: 'Yes, you can return them anytime.',
    note: 'Returns are accepted within 30 days of delivery; after that, offer store credit.',
    turn: {
      tool_calls: [],
      knowledge: [
        {
          query: 'return refund policy',
          hits: [{ path: 'knowledge/returns.md', text: 'Returns are free within 30 days of delivery.' }],
        },
      ],
      tokens: { input: 412, output: 18 },
    },
    eval_case_id: 'case_01',
    fixed_by_version: null,
    fixed_at: null,
    created_by: 'sam@example.com',
    created_at: at(10),
    updated_at: at(10),
    ...overrides,
  };
}

/** A tool call as a turn trace records it. */
export function toolCall(overrides: Partial<FlagView['turn']['tool_calls'][number]> = {}) {
  return {
    name: 'order_status',
    arguments: { order_id: 'A-1001' },
    request: { method: 'GET', url: 'https://shop.example.com/orders/A-1001' },
    status: 200,
    response: { status: 'shipped', delivery_date: '2026-06-03' },
    error: null,
    duration_ms: 42,
    ...overrides,
  };
}
