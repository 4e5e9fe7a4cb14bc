import type { Role } from '@svc/domain';
import { type JsonResponse, request, type RequestOptions } from '@svc/testkit';
import { expect } from 'vitest';
import { createUserWithToken, type TestPlatform } from '../platform.ts';
import { orderAgent } from '../agents/order-agent.ts';

export interface FlagsApi {
  /** A request to `/api/developer/v1/<slug>/flags<path>` as the workspace's owner (or with `token`). */
  flags(path?: string, init?: RequestOptions): Promise<JsonResponse>;
  /** A chat on live where the visitor says each text in turn; the ids of the agent's replies and the visitor's messages. */
  conversation(texts: string[], options?: { replay?: boolean }): Promise<{ chatId: string; replies: string[]; visitors: string[] }>;
  /** A token of a new member with this role. */
  member(role: Role, email?: string): Promise<string>;
  /** Publishes a new version of the agent (its instructions changed) to live: what a flag's fix needs. Its id and number. */
  publishNext(): Promise<{ id: string; number: number }>;
  workspaceId: string;
  token: string;
}

/** A workspace owned by `owner@<slug>.example` with the order agent live, its tool calling `backendUrl` with a secret key. */
export async function flagsWorkspace(platform: TestPlatform, slug: string, backendUrl = 'http://127.0.0.1:9'): Promise<FlagsApi> {
  const token = await createUserWithToken(platform, `owner@${slug}.example`);
  const api = (path: string, init: RequestOptions = {}) => request(`${platform.url}${path}`, { token, ...init });
  expect((await api('/cli/workspaces', { json: { slug } })).status).toBe(201);
  let published = 1;
  const files = {
    ...orderAgent({ url: backendUrl, headers: '{ X-Api-Key: "{{secrets.SHOP_KEY}}" }' }),
    'svc.yaml': `workspace: ${slug}\n`,
  };
  expect((await api(`/api/developer/v1/${slug}/deployments`, { json: { environment: 'preview', files } })).status).toBe(201);
  expect((await api(`/api/developer/v1/${slug}/publish`, { json: {} })).status).toBe(200);
  const secret = await api(`/api/developer/v1/${slug}/environments/live/secrets/SHOP_KEY`, {
    method: 'PUT',
    json: { value: 'shop-secret-key' },
  });
  expect(secret.status).toBe(204);
  const { store, identity, chats } = platform.core.services;
  const workspaceId = (await store.workspaces.findBySlug(slug))!.id;
  return {
    token,
    workspaceId,
    flags: (path = '', init = {}) => api(`/api/developer/v1/${slug}/flags${path}`, init),
    async conversation(texts, { replay = false } = {}) {
      // Replay chats are made by eval runs, never through the public API.
      const chatId = replay
        ? (await chats.create(workspaceId, { agent: 'support', environment: 'live', channel: 'api', replay })).chat_id
        : (await api(`/api/v1/${slug}/chats`, { json: { agent: 'support' } })).body.chat_id;
      const replies: string[] = [];
      const visitors: string[] = [];
      for (const text of texts) {
        const sent = await api(`/api/v1/${slug}/chats/${chatId}/messages`, { json: { text } });
        expect(sent.status).toBe(201);
        replies.push(sent.body.message_id);
        visitors.push(sent.body.visitor_message_id);
      }
      return { chatId, replies, visitors };
    },
    async publishNext() {
      published += 1;
      const next = { ...files, 'agents/support/instructions.md': `Help with orders, v${published}.` };
      expect((await api(`/api/developer/v1/${slug}/deployments`, { json: { environment: 'preview', files: next } })).status).toBe(201);
      const publish = await api(`/api/developer/v1/${slug}/publish`, { json: {} });
      expect(publish.status).toBe(200);
      return publish.body.version;
    },
    async member(role, email = `${role}@${slug}.example`) {
      const memberToken = await createUserWithToken(platform, email);
      const user = await identity.findOrCreateUser(email);
      await store.workspaces.addMember(workspaceId, user.id, role, new Date().toISOString());
      return memberToken;
    },
  };
}
