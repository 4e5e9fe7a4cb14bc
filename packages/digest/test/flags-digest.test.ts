import { describe, expect, it } from 'vitest';
import type { FlagView } from '@svc/domain';
import { renderFlagsDigest } from '../src/index.ts';

const at = '2026-06-01T12:00:00.000Z';
const flag: FlagView = {
  id: 'flg_1',
  status: 'open',
  agent: 'support',
  environment: 'live',
  version: { id: 'ver_3', number: 3 },
  channel: 'whatsapp',
  chat_id: 'chat_1',
  message_id: 'msg_2',
  conversation: [{ role: 'visitor', text: 'Can I return shoes after 40 days?', created_at: at }],
  reply: 'Yes, anytime.',
  note: 'Returns are accepted within 30 days of delivery.',
  turn: { tool_calls: [], knowledge: [], tokens: { input: 0, output: 0 } },
  eval_case_id: 'case_1',
  fixed_by_version: null,
  fixed_at: null,
  created_by: 'sam@example.com',
  created_at: at,
  updated_at: at,
};

describe('flags digest', () => {
  it('opens with instructions for a coding agent and says when nothing is open', () => {
    const md = renderFlagsDigest({ workspace: 'demo', flags: [] });
    expect(md.startsWith('# Open flags in demo\n')).toBe(true);
    expect(md).toContain('run `svc eval`');
    expect(md).toContain('No open flags.');
  });

  it('shows each flag with its context, the reply and the note, numbered', () => {
    const md = renderFlagsDigest({ workspace: 'demo', flags: [flag, { ...flag, id: 'flg_2', agent: 'sales' }] });
    expect(md).toContain('2 open flags.');
    expect(md).toContain('## 1. support on live (flg_1)');
    expect(md).toContain('## 2. sales on live (flg_2)');
    expect(md).toContain('- **visitor**: Can I return shoes after 40 days?');
    expect(md).toContain('> Yes, anytime.');
    expect(md).toContain('> Returns are accepted within 30 days of delivery.');
    expect(md).not.toContain('No open flags.');
  });
});
