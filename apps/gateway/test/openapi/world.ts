import { type FakeProvider, graphAccepted, startFakeProvider, startSilentPeer } from '@svc/testkit';
import { fakeClock } from '../phone-verification/setup.ts';
import { createUserWithToken, startGatewayWithoutCore, startPlatform, type TestPlatform } from '../platform.ts';
import { type Call, type Conformance, conformance } from './conformance.ts';

/** One platform the whole suite talks to, and a gateway beside it whose core is out of reach. */
export interface World {
  api: Conformance;
  platform: TestPlatform;
  clock: ReturnType<typeof fakeClock>;
  /** The gateway without core: every operation answers it 503. */
  downUrl: string;
  /**
   * The owner of `acme` (a WhatsApp Cloud sender against a fake Graph API) and of `bare` (no sender). Agents of an
   * `openai:` model get no answer from it.
   */
  token: string;
  /** A supervisor of `acme`: reads, but changes nothing. */
  supervisorToken: string;
  /** A second platform in local mode, where mail is delivered (to the dev mailbox), and the owner of its `acme`. */
  mail: { url: string; token: string };
  stop(): Promise<void>;
}

/**
 * What the suite needs of an operation. `sample` is a request it accepts: from it the suite derives the answers
 * every operation shares (503 without core, 401 without or with a bad token, the body's and the parameters'
 * refusals). `answers` drives its own: the success and each error code it documents.
 */
export interface OperationCase {
  sample(world: World): Call | Promise<Call>;
  answers?(world: World): Promise<void>;
}

/** Cases by operationId. */
export type OperationCases = Record<string, OperationCase>;

export async function startWorld(): Promise<World> {
  const clock = fakeClock();
  const graph: FakeProvider = await startFakeProvider(graphAccepted);
  // An OpenAI-compatible provider that never answers: a chat with an agent of its model times out.
  const model = await startSilentPeer();
  // Tools may reach backends on 127.0.0.1: eval replays call a backend that holds them while a run is cancelled.
  const platform = await startPlatform({
    clock: clock.now,
    providers: { whatsappGraphUrl: graph.url },
    toolEgress: { allowPrivateNetworks: true },
    models: { openai: { baseURL: `${model.url}/v1` }, timeoutMs: 500 },
  });
  const down = await startGatewayWithoutCore();
  const mailPlatform = await startPlatform({ localMode: true });
  const mailToken = await createUserWithToken(mailPlatform, 'ada@example.com');
  const api = await conformance(platform.url);
  const token = await createUserWithToken(platform, 'ada@example.com');
  const supervisorToken = await createUserWithToken(platform, 'sam@example.com');
  const { store } = platform.core.services;
  for (const slug of ['acme', 'bare']) await api.call('createWorkspace', { token, json: { slug } });
  await api.call('createWorkspace', { token: mailToken, json: { slug: 'acme' }, baseUrl: mailPlatform.url });
  const sam = await platform.core.services.identity.findOrCreateUser('sam@example.com');
  await store.workspaces.addMember((await store.workspaces.findBySlug('acme'))!.id, sam.id, 'supervisor', clock.now().toISOString());
  await api.call('putSender', {
    token,
    params: { workspace: 'acme' },
    json: { kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'EAAG-token', template: 'otp_code' },
  });
  return {
    api,
    platform,
    clock,
    downUrl: down.url,
    token,
    supervisorToken,
    mail: { url: mailPlatform.url, token: mailToken },
    async stop() {
      await mailPlatform.stop();
      await down.stop();
      await platform.stop();
      await graph.close();
      await model.close();
    },
  };
}
