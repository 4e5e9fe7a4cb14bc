import { afterEach, describe, expect, it } from 'vitest';
import { atOnce } from '../at-once.ts';
import { number, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld;
afterEach(() => world.stop());

const verify = (id: string, code: string) => world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code } });
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

/** A verification with its delivered code. */
async function started(): Promise<{ id: string; code: string }> {
  const id = (await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
  return { id, code: await world.deliveredCode(0) };
}

describe('verifies that arrive at once', () => {
  it('verify once with the right code sent several times: one 200, every other 409 already_verified', async () => {
    world = await verificationWorld();
    const { id, code } = await started();
    const answers = await atOnce(world.platform.url, 4, () => verify(id, code));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    expect(answers.find((answer) => answer.status === 200)!.body).toEqual({ verified: true });
    for (const answer of answers.filter((answer) => answer.status === 409)) {
      expect(answer.body).toMatchObject({ verified: true, error: { code: 'already_verified' } });
    }
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}`)).body).toMatchObject({ status: 'verified', attempts_left: 5 });
  });

  it('count exactly five failures: the five counted answer 422 with 4 to 0 attempts left, every other 423', async () => {
    world = await verificationWorld();
    const { id, code } = await started();
    const answers = await atOnce(world.platform.url, 9, () => verify(id, wrong(code)));
    const counted = answers.filter((answer) => answer.status === 422);
    expect(counted.map((answer) => answer.body.attempts_left).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const answer of counted) expect(answer.body).toMatchObject({ verified: false, error: { code: 'incorrect_code' } });
    const refused = answers.filter((answer) => answer.status !== 422);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(answer.status).toBe(423);
      expect(answer.body).toMatchObject({ verified: false, attempts_left: 0, error: { code: 'verification_blocked' } });
    }
    expect((await verify(id, code)).status).toBe(423);
  });

  it('answer right codes that lose the race with five wrong ones 423, never 422', async () => {
    world = await verificationWorld();
    const { id, code } = await started();
    const answers = await atOnce(world.platform.url, 8, (index) => verify(id, index < 5 ? wrong(code) : code));
    const [wrongs, rights] = [answers.slice(0, 5), answers.slice(5)];
    const view = (await world.api(`/api/v1/acme/phone_verifications/${id}`)).body;
    if (view.status === 'verified') {
      // A right code came before the fifth failure: it verified, and what came after found it verified.
      expect(rights.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
      for (const answer of wrongs) expect([422, 409]).toContain(answer.status);
    } else {
      expect(view).toMatchObject({ status: 'blocked', attempts_left: 0 });
      expect(wrongs.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422]);
      expect(wrongs.map((answer) => answer.body.attempts_left).sort()).toEqual([0, 1, 2, 3, 4]);
      for (const answer of rights)
        expect(answer.body).toMatchObject({ verified: false, attempts_left: 0, error: { code: 'verification_blocked' } });
      expect(rights.map((answer) => answer.status)).toEqual([423, 423, 423]);
    }
  });
});
