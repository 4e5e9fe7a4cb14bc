import { describe, expect, it } from 'vitest';
import { type DigestFlag, renderFlagsDigest } from '../src/index.ts';

const flag: DigestFlag = {
  id: 'flg_1',
  agent: 'support',
  environment: 'live',
  version: 'v3',
  channel: 'whatsapp',
  conversation: [{ role: 'visitor', text: 'Can I return shoes after 40 days?' }],
  reply: 'Yes, anytime.',
  note: 'Returns are accepted within 30 days of delivery.',
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
