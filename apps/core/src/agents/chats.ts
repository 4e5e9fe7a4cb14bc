import { AgentRunner, AgentRunnerCache, type EgressRules, ModelTimeout, parseBundle, type ProviderSettings } from '@svc/agent-runtime';
import { DomainError, type InboxQuery } from '@svc/domain';
import { z } from 'zod';
import type { Chat } from './store.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import type { DeploymentService } from './deployments.ts';
import type { FlagService } from '../flags/service.ts';
import { newId } from '../platform/ids.ts';
import { nextCursorOf, pageRequest } from '../platform/pages.ts';

export interface NewChat {
  agent: string;
  environment: string;
  channel: string;
  /** Chats of eval replays: never in the inbox or any conversation count. */
  replay?: boolean;
}

const toChatView = (c: Chat) => ({
  chat_id: c.id,
  agent: c.agent,
  environment: c.environment,
  version: c.versionId,
  channel: c.channel,
  created_at: c.createdAt,
});

/** A model that did not answer in time, as the caller's error; the visitor's message was not kept and may be sent again. */
function modelTimedOut(error: unknown): never {
  if (!(error instanceof ModelTimeout)) throw error;
  const seconds = error.timeoutMs / 1000;
  throw new DomainError('model_timeout', `the agent's model ${error.model} did not answer within ${seconds} s; send the message again`);
}

/** Chats with deployed agents: each message is a real agent turn, traced. */
export function createChatService(
  store: Store,
  deployments: DeploymentService,
  flags: Pick<FlagService, 'openIn'>,
  providers: ProviderSettings,
  egress: EgressRules,
  clock: Clock,
) {
  const runners = new AgentRunnerCache();

  function runnerFor(chat: Chat): Promise<AgentRunner> {
    return runners.get(`${chat.versionId}:${chat.agent}`, async () => {
      const version = await store.versions.get(chat.workspaceId, chat.versionId);
      const agent = version && parseBundle(version.files).agents.find((a) => a.slug === chat.agent);
      if (!agent) throw new DomainError('agent_not_found', `agent "${chat.agent}" is not in this version`);
      return new AgentRunner(agent, providers, egress);
    });
  }

  return {
    async create(workspaceId: string, input: NewChat) {
      const environment = await store.environments.get(workspaceId, input.environment);
      if (!environment?.version) throw new DomainError('environment_not_found', `nothing is deployed to "${input.environment}"`);
      if (!Object.hasOwn(environment.version.files, `agents/${input.agent}/agent.yaml`)) {
        throw new DomainError(
          'agent_not_found',
          `no agent "${input.agent}" in ${input.environment} (version v${environment.version.number})`,
        );
      }
      const chat: Chat = {
        id: newId('chat'),
        workspaceId,
        agent: input.agent,
        environment: input.environment,
        versionId: environment.version.id,
        channel: input.channel,
        replay: input.replay ?? false,
        createdAt: clock().toISOString(),
      };
      await store.chats.create(chat);
      return toChatView(chat);
    },

    /** The visitor says something; the agent answers. Both messages are kept, the agent's with its trace. */
    async send(workspaceId: string, chatId: string, text: string) {
      const chat = await store.chats.get(workspaceId, chatId);
      if (!chat) throw new DomainError('chat_not_found', `no chat ${chatId} in this workspace`);
      const runner = await runnerFor(chat);
      const history = (await store.chats.messages(chat.id)).map((m) => ({ role: m.role, text: m.text }));
      const secrets = await deployments.secretValues(workspaceId, chat.environment);
      const visitorAt = clock().toISOString();
      const { reply, trace } = await runner.reply(history, text, secrets).catch(modelTimedOut);
      const visitor = { id: newId('msg'), chatId: chat.id, role: 'visitor' as const, text, trace: null, createdAt: visitorAt };
      const agent = { id: newId('msg'), chatId: chat.id, role: 'agent' as const, text: reply, trace, createdAt: clock().toISOString() };
      await store.chats.addMessages([visitor, agent]);
      return { message_id: agent.id, reply, visitor_message_id: visitor.id };
    },

    /** A chat with its messages; agent messages carry their turn trace. */
    async get(workspaceId: string, chatId: string) {
      const chat = await store.chats.get(workspaceId, chatId);
      if (!chat) throw new DomainError('chat_not_found', `no chat ${chatId} in this workspace`);
      const messages = await store.chats.messages(chat.id);
      return {
        ...toChatView(chat),
        messages: messages.map((m) => ({ id: m.id, role: m.role, text: m.text, trace: m.trace, created_at: m.createdAt })),
      };
    },

    /** The inbox, a page at a time, newest first, narrowed to an agent, an environment or flagged chats when asked. */
    async inbox(workspaceId: string, { agent, environment, flagged: flaggedOnly, ...query }: InboxQuery) {
      const filter = { agent, environment, ...(flaggedOnly === 'true' ? { flagged: true as const } : {}) };
      const page = await store.chats.inbox(workspaceId, filter, pageRequest(query, z.iso.datetime()));
      const flagged = await flags.openIn(
        workspaceId,
        page.items.map((chat) => chat.id),
      );
      return {
        conversations: await store.chats.countConversations(workspaceId),
        chats: page.items.map((chat) => ({
          ...toChatView(chat),
          version_number: chat.versionNumber,
          first_visitor_message: chat.firstVisitorText,
          message_count: chat.messageCount,
          flagged: flagged.has(chat.id),
        })),
        next_cursor: nextCursorOf(page, (chat) => ({ key: chat.createdAt, id: chat.id })),
      };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
