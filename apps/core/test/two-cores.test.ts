import { randomBytes } from 'node:crypto';
import { DomainError } from '@svc/domain';
import { createLogger } from '@svc/server-kit';
import { graphAccepted, startFakeProvider } from '@svc/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/platform/config.ts';
import { createServices, type Services } from '../src/services.ts';
import { hourOf } from '../src/verification/store.ts';
import type { Store } from '../src/store.ts';
import { closeStores, openCoreStores } from './test-stores.ts';

/**
 * Two cores on one database: two sets of services, each with its own memory. On PostgreSQL each has its own
 * store (its own connections); on SQLite they share one. What one core's memory cannot see of the other, only the
 * database keeps right.
 */
const log = createLogger('core', { LOG_LEVEL: 'silent' });

describe.each(['sqlite', 'postgres'] as const)('two cores on %s', (kind) => {
  let stores: Store[];
  let store: Store;
  let cores: Services[];
  let secretKey: Buffer;
  const number = '+56912345678';
  const at = '2026-06-01T12:00:00.000Z';

  beforeEach(async () => {
    stores = await openCoreStores(kind, 2);
    store = stores[0]!;
    secretKey = randomBytes(32);
    cores = stores.map((own) => createServices({ store: own, secretKey, log }));
    await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
    await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_1');
    await cores[0]!.senders.put('ws_1', { kind: 'dev' });
  });
  afterEach(async () => {
    await Promise.all(cores.map((core) => core.delivery.stop()));
    await closeStores(stores);
  });

  const coreFor = (i: number) => cores[i % 2]!;

  async function deliveredCodes(): Promise<number> {
    await expect.poll(async () => (await store.outbox.due('9999-01-01T00:00:00.000Z', 10)).length).toBe(0);
    await Promise.all(cores.map((core) => core.delivery.stop()));
    return (await store.devMessages.list(100)).filter((message) => message.to === number).length;
  }

  it('sends one code when creates for one number reach both cores at once; the others wait for a resend', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => coreFor(i).verifications.create('ws_1', number)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as DomainError] : []));
    expect(refused.map((error) => error.code)).toEqual(Array(19).fill('resend_too_soon'));
    expect(await deliveredCodes()).toBe(1);
  });

  it('passes the hourly cap by at most one code per core when a workspace sends through both cores at once', async () => {
    const config = { ...defaultConfig, otp: { ...defaultConfig.otp, workspaceHourlyLimit: 5 } };
    const capped = stores.map((own) => createServices({ store: own, secretKey, log, config }));
    cores.push(...capped);
    const numbers = Array.from({ length: 30 }, (_, i) => `+5691000${String(i).padStart(4, '0')}`);
    const results = await Promise.allSettled(numbers.map((phone, i) => capped[i % 2]!.verifications.create('ws_1', phone)));
    const sent = results.filter((result) => result.status === 'fulfilled').length;
    // SQLite writes one at a time: exactly the cap. On PostgreSQL each core counts in its own row, so the two may
    // each send one past what the other had counted.
    if (kind === 'sqlite') expect(sent).toBe(5);
    else expect(sent).toBeGreaterThanOrEqual(5);
    expect(sent).toBeLessThanOrEqual(5 + 1);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'send_limit_exceeded' });
    expect(await store.outbox.sendsInHour('ws_1', hourOf(new Date().toISOString()))).toBe(sent);
  });

  it('runs a request with one Idempotency-Key once when its retries reach both cores at once, and answers them all alike', async () => {
    const scope = { workspaceId: 'ws_1', operation: 'verifications.create', key: 'create-1', request: number };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => coreFor(i).idempotency.run(scope, () => coreFor(i).verifications.create('ws_1', number))),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await deliveredCodes()).toBe(1);
  });

  it('runs a request afresh after the one holding its key failed without a final answer', async () => {
    const scope = { workspaceId: 'ws_1', operation: 'verifications.create', key: 'create-2', request: number };
    let runs = 0;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const failing = cores[0]!.idempotency.run(scope, async () => {
      runs++;
      holding();
      await new Promise((resolve) => setImmediate(resolve));
      throw new DomainError('sender_not_configured', 'configure a sender');
    });
    await held; // the first core holds the key: the retry reaches the other while it runs
    const retry = cores[1]!.idempotency.run(scope, async () => {
      runs++;
      return cores[1]!.verifications.create('ws_1', number);
    });
    await expect(failing).rejects.toMatchObject({ code: 'sender_not_configured' });
    expect(await retry).toMatchObject({ verification_id: expect.stringMatching(/^pv_/) });
    expect(runs).toBe(2);
  });

  it('sends a code from the core that queued it; the other takes it only once it has been due there for a poll', async () => {
    // One clock for both cores, moved by hand, and a fake Graph API each: the one a code reaches says who sent it.
    const graphs = [await startFakeProvider(graphAccepted), await startFakeProvider(graphAccepted)];
    let now = Date.parse(at);
    const pollMs = 50;
    // The other core's claims are counted as they reach the database.
    let claims = 0;
    const counted = (own: Store): Store =>
      new Proxy(own, {
        get: (target, key) =>
          key === 'outbox'
            ? { ...target.outbox, claim: (...args: Parameters<Store['outbox']['claim']>) => (claims++, target.outbox.claim(...args)) }
            : Reflect.get(target, key),
      });
    const [queuing, other] = stores.map((own, i) =>
      createServices({
        store: i === 0 ? own : counted(own),
        secretKey,
        log,
        clock: () => new Date(now),
        config: {
          ...defaultConfig,
          providers: { ...defaultConfig.providers, whatsappGraphUrl: graphs[i]!.url },
          delivery: { ...defaultConfig.delivery, pollMs },
        },
      }),
    ) as [Services, Services];
    cores.push(queuing, other);
    await queuing.senders.put('ws_1', {
      kind: 'whatsapp_cloud',
      phone_number_id: '1',
      access_token: 'tok',
      template: 'otp',
      language: 'en',
    });
    queuing.delivery.start();
    other.delivery.start();
    const numbers = Array.from({ length: 6 }, (_, i) => `+5691000${String(i).padStart(4, '0')}`);
    for (const phone of numbers.slice(0, 5)) await queuing.verifications.create('ws_1', phone);
    await graphs[0]!.waitForRequests(5);

    // The core that queued the next code stops sending, as one that died. The other leaves the code for two whole
    // polls, then takes it once it has been due for a poll.
    await queuing.delivery.stop();
    const { verification_id: id } = await queuing.verifications.create('ws_1', numbers[5]!);
    const seen = claims;
    await expect.poll(() => claims).toBeGreaterThanOrEqual(seen + 2);
    expect((await store.verifications.get('ws_1', id))?.deliveryStatus).toBe('queued');
    now += pollMs;
    await expect.poll(async () => (await store.verifications.get('ws_1', id))?.deliveryStatus).toBe('sent');
    expect([graphs[0]!.received, graphs[1]!.received]).toEqual([5, 1]);
    await Promise.all(graphs.map((graph) => graph.close()));
  });

  it('sends a code once when its send outlasts its claim: the core claims it again and the send under way records it', async () => {
    let release!: () => void;
    const held = new Promise((resolve) => (release = () => resolve(undefined)));
    const graph = await startFakeProvider(() => ({ status: 200, body: { messages: [{ id: 'wamid.1' }] }, until: held }));
    let now = Date.parse(at);
    const core = createServices({
      store,
      secretKey: randomBytes(32),
      log: createLogger('core', { LOG_LEVEL: 'silent' }),
      clock: () => new Date(now),
      config: {
        ...defaultConfig,
        providers: { ...defaultConfig.providers, whatsappGraphUrl: graph.url },
        delivery: { ...defaultConfig.delivery, pollMs: 20, claimMs: 1000 },
      },
    });
    cores.push(core);
    await core.senders.put('ws_1', {
      kind: 'whatsapp_cloud',
      phone_number_id: '1234567890',
      access_token: 'tok',
      template: 'otp_code',
      language: 'en',
    });
    const created = await core.verifications.create('ws_1', number);
    await graph.waitForRequests(1);
    const [first] = await store.outbox.due('9999-01-01T00:00:00.000Z', 10);
    now += 5000; // the claim ends while the provider still holds the send
    core.delivery.start();
    await expect.poll(async () => (await store.outbox.due('9999-01-01T00:00:00.000Z', 10))[0]?.claimId).not.toBe(first!.claimId);
    release();
    await expect.poll(async () => (await store.verifications.get('ws_1', created.verification_id))?.deliveryStatus).toBe('sent');
    await core.delivery.stop();
    expect(graph.requests).toHaveLength(1);
    await graph.close();
  });
});
