import nock from 'nock';
import { api, fixture, installationId, type RunningApp } from './harness.ts';
import { createUserWithToken, type PlatformOptions, startPlatform, type TestPlatform } from './platform.ts';

export const repository = 'acme/shop';

/** What `svc push` sends: the support agent answers refund questions by a scripted rule. */
export function agentFiles(refundReply = 'Refunds take 5 days.'): Record<string, string> {
  return {
    'svc.yaml': 'workspace: acme\n',
    'agents/support/agent.yaml': `name: Support\nmodel: scripted\nscripted:\n  rules:\n    - when: "refund"\n      reply: "${refundReply}"\n  fallback: Hello.\n`,
    'agents/support/instructions.md': 'Help.',
  };
}

type Membership = Awaited<ReturnType<TestPlatform['core']['services']['workspaces']['create']>>;

export interface World {
  platform: TestPlatform;
  workspace: Membership;
  owner: { id: string; email: string };
  /** Flags a reply of the live agent with a note; the note's quoted phrase is what its eval case checks. */
  flag(note: string): Promise<string>;
}

/**
 * The platform with the workspace `acme`: its support agent live, one reply flagged with a note that expects
 * "5 days" (so previews replay that case), and `acme/shop` linked to it by its owner through the API.
 */
export async function startWorld(options: PlatformOptions = {}): Promise<World> {
  const platform = await startPlatform(options);
  const { services } = platform.core;
  const token = await createUserWithToken(platform, 'ada@example.com');
  const owner = await services.identity.findOrCreateUser('ada@example.com');
  const workspace = await services.workspaces.create(owner.id, { slug: 'acme' });
  await services.deployments.push(workspace, owner.id, { environment: 'preview', files: agentFiles() });
  await services.deployments.publish(workspace, 'preview');
  const flag = async (note: string) => {
    const chat = await services.chats.create(workspace.id, { agent: 'support', environment: 'live', channel: 'web' });
    const sent = await services.chats.send(workspace.id, chat.chat_id, 'how long does a refund take?');
    return (await services.flags.create(workspace, owner.email, { message_id: sent.message_id, note })).id;
  };
  await flag('Say that refunds take "5 days".');
  const linked = await fetch(`${platform.url}/api/developer/v1/acme/github/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ repository }),
  });
  if (linked.status !== 201) throw new Error(`linking ${repository}: ${linked.status} ${await linked.text()}`);
  return { platform, workspace, owner, flag };
}

/** Installs the app on acme/shop and acme/blog, as GitHub tells it: the webhook also labels both repositories. */
export async function install(app: RunningApp): Promise<void> {
  const github = nock(api)
    .post(`/app/installations/${installationId}/access_tokens`)
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z' })
    .get('/repos/acme/shop/labels/service-flags')
    .reply(200, { name: 'service-flags' })
    .get('/repos/acme/blog/labels/service-flags')
    .reply(200, { name: 'service-flags' });
  const res = await app.deliver('installation', fixture('installation.created'));
  if (res.status !== 200 || !github.isDone()) throw new Error(`installing: ${res.status} ${await res.text()} ${github.pendingMocks()}`);
}
