import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/server-kit';
import { type CoreConfig, defaultConfig, type RunningCore, startCore } from '../../src/bootstrap.ts';
import type { Membership } from '../../src/store.ts';
import { agentFiles } from '../flags/setup.ts';
import { tempDir } from '../temp-dir.ts';

/**
 * Cores started one after another (or side by side) on one data dir, with one secret key, mailing through `smtpUrl`,
 * on a clock the test moves.
 */
export function digestCores(smtpUrl: string, config: Partial<CoreConfig> = {}) {
  const dataDir = tempDir();
  const secretKey = randomBytes(32);
  const clock = { now: Date.parse('2026-04-05T11:00:00.000Z'), system: false };
  const started: RunningCore[] = [];
  return {
    dataDir,
    clock,
    /** Sets the clock to an instant (ISO, UTC). */
    at(iso: string) {
      clock.now = Date.parse(iso);
    },
    /** Cores read `Date` (which the test may fake, for node-cron's sake too) instead of the set instant. */
    useSystemClock() {
      clock.system = true;
    },
    async start(): Promise<RunningCore> {
      const core = await startCore({
        dataDir,
        port: 0,
        secretKey,
        config: {
          ...defaultConfig,
          mail: { ...defaultConfig.mail, smtpUrl },
          delivery: { ...defaultConfig.delivery, pollMs: 50 },
          ...config,
        },
        clock: () => (clock.system ? new Date() : new Date(clock.now)),
        log: createLogger('core', { LOG_LEVEL: 'silent' }),
      });
      started.push(core);
      return core;
    },
    async stopAll() {
      await Promise.all(started.map((core) => core.stop()));
    },
  };
}

/**
 * `acme` with its support agent live, owned by ada, with dev as developer and sue as supervisor; flags `notes`
 * (null: a flag without a note) on replies of one chat, in order.
 */
export async function acmeWithFlags(services: RunningCore['services'], notes: (string | null)[]) {
  const ada = await services.identity.findOrCreateUser('ada@example.com');
  const workspace = await services.workspaces.create(ada.id, { slug: 'acme' });
  for (const [email, role] of [
    ['dev@example.com', 'developer'],
    ['sue@example.com', 'supervisor'],
  ] as const) {
    const user = await services.identity.findOrCreateUser(email);
    await services.store.workspaces.addMember(workspace.id, user.id, role, services.clock().toISOString());
  }
  await services.deployments.push(workspace, ada.id, { environment: 'preview', files: agentFiles });
  await services.deployments.publish(workspace, 'preview');
  await flagReplies(services, workspace, notes);
  return { workspace, flag: (more: (string | null)[]) => flagReplies(services, workspace, more) };
}

/** Sue flags replies of a new chat of the support agent on live, one per note (null: a flag without a note). */
export async function flagReplies(services: RunningCore['services'], workspace: Membership, notes: (string | null)[]) {
  const chat = await services.chats.create(workspace.id, { agent: 'support', environment: 'live', channel: 'web' });
  for (const note of notes) {
    const { message_id } = await services.chats.send(workspace.id, chat.chat_id, 'refund please');
    await services.flags.create(workspace, 'sue@example.com', { message_id, ...(note === null ? {} : { note }) });
  }
}
