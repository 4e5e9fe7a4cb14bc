import { createPostgresDatabase, recordQueries } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type VerificationWorld, verificationWorld } from './setup.ts';

// Each query the driver sends is one round trip to PostgreSQL.
let recorded: ReturnType<typeof recordQueries>;
beforeAll(() => {
  recorded = recordQueries();
});
afterAll(() => recorded.stop());

const testNumber = '+56900000001';
let world: VerificationWorld;
beforeAll(async () => {
  // No eval runner: it polls core for work.
  world = await verificationWorld({ databaseUrl: await createPostgresDatabase(), evalConcurrency: 0 });
  const { services } = world.platform.core;
  // Core's own loops (delivery, mail, retention...) query on their own schedule: paused, only the requests query.
  await Promise.all([services.delivery.stop(), services.mailer.loop.stop(), services.retention.stop(), services.dailyDigest.stop()]);
  services.evalWork.stop();
  services.github.events.stop();
  const put = await world.api('/api/developer/v1/acme/test_numbers', {
    method: 'PUT',
    json: { test_numbers: [{ phone_number: testNumber, code: '424242' }] },
  });
  expect(put.status).toBe(200);
  // The first create of a workspace reads its sender and test numbers, kept for the creates after it.
  expect((await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: '+56911111111' } })).status).toBe(201);
});
afterAll(() => world.stop());

/** The queries core sends to PostgreSQL while the request is answered. */
async function queriesOf(send: () => Promise<void>): Promise<string[]> {
  recorded.queries.length = 0;
  await send();
  return [...recorded.queries];
}

const create = (phoneNumber: string) => world.api('/api/v1/acme/phone_verifications', { json: { phone_number: phoneNumber } });

it('creates a verification in one round trip to PostgreSQL, its message queued and counted; at most 3 when the number has a code', async () => {
  const sent = await queriesOf(async () => expect((await create('+56922222222')).status).toBe(201));
  expect(sent, sent.join('\n')).toHaveLength(1);
  const testCreate = await queriesOf(async () => expect((await create(testNumber)).status).toBe(201));
  expect(testCreate, testCreate.join('\n')).toHaveLength(1);
  // The number has a pending code: the create reads the number's state, then answers (here: wait before a resend).
  const again = await queriesOf(async () => expect((await create('+56922222222')).status).toBe(429));
  expect(again.length, again.join('\n')).toBeLessThanOrEqual(3);
});

it('checks a code in one round trip to PostgreSQL: wrong, right, or already verified', async () => {
  const created = await create(testNumber);
  const verify = (code: string) => world.api(`/api/v1/acme/phone_verifications/${created.body.verification_id}/verify`, { json: { code } });
  const wrong = await queriesOf(async () => expect((await verify('000000')).status).toBe(422));
  expect(wrong, wrong.join('\n')).toHaveLength(1);
  const right = await queriesOf(async () => expect((await verify('424242')).status).toBe(200));
  expect(right, right.join('\n')).toHaveLength(1);
  const again = await queriesOf(async () => expect((await verify('424242')).status).toBe(409));
  expect(again, again.join('\n')).toHaveLength(1);
});
