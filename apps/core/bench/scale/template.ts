import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBundleFiles } from '@svc/domain/bundle-files';
import { createLogger } from '@svc/server-kit';
import type { FakeProvider } from '@svc/testkit';
import { startCore } from '../../src/bootstrap.ts';
import { answering, type BenchStore, secretKey, startCoreProcess, startGatewayProcess, startRunnerProcess } from './stores.ts';

/** The workspace the template grows, with the demo agent of the examples, deployed and published as a developer does. */
export const workspace = 'demo';
const demoRepository = fileURLToPath(new URL('../../../../examples/demo', import.meta.url));

/** The template: what one tenth of the operator's smaller workspace holds, made through the gateway. */
const verifications = 1000;
const wrongCodes = 100;
const chats = 50;
/**
 * Flags whose note the scripted agent never meets, which stay open but one (a person's pass on its result fixes it),
 * and flags whose note quotes the reply, which the first live run fixes.
 */
const openFlags = 5;
const fixedFlags = 3;
const runs = 3;

const visitorTurns = [
  ['Hi, can I return shoes I bought last week?', 'How long does the refund take?'],
  ['Do you ship to Valparaíso?', 'How long does express delivery take?'],
  ['Hello, I need some help.', 'What can you do for me?'],
];

/** Who the bench signs in as: a developer token for the API, a console session for the pages. */
export interface Credentials {
  token: string;
  session: string;
}

/** What the measures need to know of the template. */
export interface Template {
  credentials: Credentials;
  /** A chat that holds an open flag: its console page. */
  flaggedChat: string;
}

/** The owner, their developer token and a console session, written by a core in this process that then stops. */
async function signIn(store: BenchStore): Promise<Credentials> {
  const log = createLogger('core', { LOG_LEVEL: 'silent' });
  const seeding = await startCore({ dataDir: store.dataDir, database: store.database, port: 0, secretKey, log });
  const user = await seeding.services.identity.findOrCreateUser('ada@example.com');
  const { token } = await seeding.services.identity.issueToken(user.id, 'scale bench');
  const { token: session } = await seeding.services.sessions.create(user.id);
  await seeding.stop();
  return { token, session };
}

/** Runs `work` for 0..count-1, `concurrency` at a time. */
async function inTurn(count: number, concurrency: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/**
 * Builds the template on `store` through the real entry points: core, the gateway and an eval runner as built
 * processes; verifications whose codes reach `graph`, chats with the scripted agent, flags with notes (each makes an
 * eval case), runs on live replayed to their end on the deterministic grader, and a person's verdict on one result.
 */
export async function buildTemplate(store: BenchStore, graph: FakeProvider): Promise<Template> {
  const credentials = await signIn(store);
  const core = await startCoreProcess(store, {
    LOG_LEVEL: 'warn',
    SVC_OTP_WORKSPACE_HOURLY_LIMIT: '100000000',
    WHATSAPP_GRAPH_URL: graph.url,
  });
  await answering(core);
  const gateway = await startGatewayProcess(core.url);
  await answering(gateway);
  const runner = startRunnerProcess(core.url);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${credentials.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300 && response.status !== 422)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const api = `/api/developer/v1/${workspace}`;

  await call('POST', '/cli/workspaces', { slug: workspace, name: 'Demo' });
  await call('PUT', `${api}/sender`, {
    kind: 'whatsapp_cloud',
    phone_number_id: '1234567890',
    access_token: 'bench',
    template: 'otp_code',
  });
  await call('POST', `${api}/deployments`, { environment: 'preview', files: await readBundleFiles(demoRepository) });
  await call('POST', `${api}/publish`, { from: 'preview' });

  const sentBefore = graph.received;
  const made: string[] = [];
  await inTurn(verifications, 8, async (i) => {
    const created = await call<{ verification_id: string }>('POST', `/api/v1/${workspace}/phone_verifications`, {
      phone_number: `+569${String(20_000_000 + i)}`,
    });
    made.push(created.verification_id);
  });
  await inTurn(wrongCodes, 8, (i) => call('POST', `/api/v1/${workspace}/phone_verifications/${made[i]}/verify`, { code: '000000' }));
  // Every code sent before the template is copied: a copy of a pending message would be sent by the core measured.
  while (graph.received - sentBefore < verifications) await sleep(100);

  /** Each chat's last reply: the one a flag points at. */
  const replies: { chat: string; message: string; text: string }[] = [];
  await inTurn(chats, 4, async (i) => {
    const chat = await call<{ chat_id: string }>('POST', `/api/v1/${workspace}/chats`, { agent: 'support', channel: 'web' });
    for (const text of visitorTurns[i % visitorTurns.length]!) {
      const reply = await call<{ message_id: string; reply: string }>('POST', `/api/v1/${workspace}/chats/${chat.chat_id}/messages`, {
        text,
      });
      replies[i] = { chat: chat.chat_id, message: reply.message_id, text: reply.reply };
    }
  });
  for (const [i, reply] of replies.slice(0, openFlags + fixedFlags).entries()) {
    // The deterministic grader passes a replay whose reply holds every quoted phrase of the note.
    const quoted = i < openFlags ? 'Your refund reaches your card within 5 business days' : reply.text.split(/[.!?\n]/)[0]!.trim();
    await call('POST', `${api}/flags`, { message_id: reply.message, note: `Answer in one sentence: "${quoted}".` });
  }

  let last = '';
  for (let i = 0; i < runs; i++) {
    const run = await call<{ id: string }>('POST', `${api}/evals/runs`, { environment: 'live' });
    while (!(await call<{ finished: boolean }>('GET', `${api}/evals/runs/${run.id}`)).finished) {
      await sleep(200);
    }
    last = run.id;
  }
  const { results } = await call<{ results: { case_id: string; verdict: string }[] }>('GET', `${api}/evals/runs/${last}`);
  const failed = results.find((result) => result.verdict === 'fail');
  if (failed) await call('PUT', `${api}/evals/runs/${last}/results/${failed.case_id}/override`, { verdict: 'pass' });

  await runner.stop();
  await gateway.app.stop();
  await core.app.stop();
  return { credentials, flaggedChat: replies[0]!.chat };
}
