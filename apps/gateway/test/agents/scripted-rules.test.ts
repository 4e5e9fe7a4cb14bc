import { request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VerificationWorld, verificationWorld } from '../phone-verification/setup.ts';

let world: VerificationWorld;
beforeAll(async () => {
  world = await verificationWorld();
});
afterAll(() => world.stop());

const agentWith = (when: string) => ({
  'svc.yaml': 'workspace: acme\n',
  'agents/support/agent.yaml': `name: Support
model: scripted
scripted:
  rules:
    - when: ${JSON.stringify(when)}
      reply: Only a's.
  fallback: Hello from support.
`,
  'agents/support/instructions.md': 'Help.',
});

const push = (files: Record<string, string>) =>
  world.api('/api/developer/v1/acme/deployments', { json: { environment: 'preview', files } });

describe('regular expressions of scripted rules', () => {
  it('are refused at push when they do not compile, or use syntax without linear-time matching, naming file and path', async () => {
    const unbalanced = await push(agentWith('('));
    expect(unbalanced.status).toBe(400);
    expect(unbalanced.body.error.code).toBe('invalid_manifest');
    expect(unbalanced.body.issues).toEqual([
      { file: 'agents/support/agent.yaml', path: 'scripted.rules[0].when', message: expect.stringContaining('missing )') },
    ]);

    const lookahead = await push(agentWith('order (?=A-)'));
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.issues).toEqual([
      {
        file: 'agents/support/agent.yaml',
        path: 'scripted.rules[0].when',
        message: expect.stringContaining('lookarounds and backreferences are not supported'),
      },
    ]);
  });

  it('run in linear time: while a catastrophic pattern is matched, /healthz and a phone verification answer within 2 s', async () => {
    expect((await push(agentWith('^(a+)+$'))).status).toBe(201);
    const chat = (await world.api('/api/v1/acme/chats', { json: { agent: 'support', environment: 'preview' } })).body;
    // Warm both paths up, so what is measured below is waiting, not a first call's set-up.
    await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: '+56912340000' } });
    await request(`${world.platform.url}/healthz`);

    const timed = async (send: () => Promise<{ status: number }>) => {
      const started = performance.now();
      const { status } = await send();
      return { status, ms: Math.round(performance.now() - started) };
    };
    let answered = false;
    // A backtracking engine takes twice as long for each more `a`: about a second at 24 of them, a quarter of an hour at
    // 34. So a stall shows far beyond the 2 s each answer is given, which a busy machine's waits stay well within.
    const evil = world.api(`/api/v1/acme/chats/${chat.chat_id}/messages`, { json: { text: `${'a'.repeat(34)}!` } }).finally(() => {
      answered = true;
    });
    // Until the message is answered, keep asking: every answer must come while it is being handled.
    const answers: { status: number; ms: number }[] = [];
    let n = 0;
    do {
      const phone = `+5691235${String(n++).padStart(4, '0')}`;
      answers.push(
        ...(await Promise.all([
          timed(() => request(`${world.platform.url}/healthz`)),
          timed(() => world.api('/api/v1/acme/phone_verifications', { json: { phone_number: phone } })),
        ])),
      );
    } while (!answered);

    const reply = await evil;
    expect(reply.status).toBe(201);
    expect(reply.body.reply).toBe('Hello from support.');
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: n }, () => [200, 201]).flat());
    for (const answer of answers) expect(answer.ms).toBeLessThan(2000);
  });
});
