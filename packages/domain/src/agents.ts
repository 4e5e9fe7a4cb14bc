import { z } from 'zod';
import { displayText } from './display-text.ts';
import { nextCursor, pageQuery } from './pagination.ts';

/** `feat/Refund-Flow` → `feat-refund-flow`: the environment a branch deploys to. */
export function environmentForBranch(branch: string | undefined): string {
  if (!branch) return 'preview';
  const name = branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return name || 'preview';
}

// `.max()` after the pattern, which already bounds the length: the pattern's message stays the one answered, and the
// OpenAPI document states maxLength too (a path parameter's, among others).
export const environmentName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'expected an environment name: lowercase letters, digits and dashes')
  .max(40)
  .meta({ example: 'feat-refund-flow' });

/** An agent's folder name under `agents/`. */
export const agentSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/, 'expected an agent slug: lowercase letters, digits and dashes')
  .meta({ example: 'support' });

/** The files a deployment is made of: `svc.yaml` and everything under `agents/`, dot-files and dot-folders left out. */
export const isBundleFile = (path: string): boolean =>
  path === 'svc.yaml' || (path.startsWith('agents/') && !path.split('/').some((p) => p.startsWith('.')));

export const pushInput = z
  .object({
    environment: environmentName,
    /** The manifest files: `svc.yaml` and everything under `agents/`, by path. */
    files: z.record(z.string().max(300), z.string().max(1_000_000)),
    git: z.object({ commit: displayText(z.string().max(64)).optional(), branch: displayText(z.string().max(255)).optional() }).optional(),
  })
  .meta({ id: 'Deployment' });
export type PushInput = z.infer<typeof pushInput>;

export const versionView = z
  .object({
    id: z.string(),
    number: z.number().int(),
    content_hash: z.string(),
    git_commit: z.string().nullable(),
    git_branch: z.string().nullable(),
    author: z.string().meta({ description: "The pusher's email" }),
    created_at: z.iso.datetime(),
    agents: z.array(z.string()),
  })
  .meta({ id: 'AgentVersion' });
export type VersionView = z.infer<typeof versionView>;

export const versionList = z
  .object({ versions: z.array(versionView).meta({ description: 'Newest first' }), next_cursor: nextCursor })
  .meta({ id: 'AgentVersionList' });

export const deploymentResult = z
  .object({
    environment: z.string(),
    version: versionView,
    created: z.boolean().meta({ description: 'false when the same content was already a version' }),
    missing_secrets: z.array(z.string()).meta({
      description: "Secrets the agents' tools use that the environment does not have: their tool calls fail until each is set",
    }),
  })
  .meta({ id: 'DeploymentResult' });

export const publishResult = deploymentResult
  .extend({
    eval_run_id: z.string().nullable().meta({
      description: "The eval run of every case on live that the publish started; null when the workspace has no case for live's agents",
    }),
  })
  .meta({ id: 'PublishResult' });

export const environmentList = z
  .object({ environments: z.array(z.object({ name: z.string(), version: versionView.nullable(), updated_at: z.iso.datetime() })) })
  .meta({ id: 'EnvironmentList' });

export const publishInput = z
  .object({
    from: environmentName
      // A pattern rather than a refinement, so that the OpenAPI document states it.
      .regex(/^(?!live$)/, 'live cannot be published to itself: publish from another environment, such as preview')
      .default('preview'),
  })
  .meta({ id: 'Publish' });

export const secretName = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'expected an UPPER_SNAKE_CASE name')
  .max(64)
  .meta({ example: 'API_KEY' });
export const secretValueInput = z.object({ value: z.string().min(1).max(10_000) }).meta({ id: 'SecretValue' });
export const secretList = z
  .object({ secrets: z.array(z.object({ name: z.string(), updated_at: z.iso.datetime() })) })
  .meta({ id: 'SecretList' });

export const createChatInput = z
  .object({
    agent: z.string().min(1).max(40),
    environment: environmentName.default('live'),
    channel: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,31}$/)
      .default('api'),
  })
  .meta({ id: 'CreateChat' });

export const chatView = z
  .object({
    chat_id: z.string(),
    agent: z.string(),
    environment: z.string(),
    version: z.string(),
    channel: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Chat' });

/** A page of the inbox, narrowed to an agent, an environment, or both. */
export const inboxQuery = pageQuery.extend({
  agent: agentSlug.optional().meta({ description: "Only this agent's chats" }),
  environment: environmentName.optional().meta({ description: "Only this environment's chats" }),
  flagged: z.enum(['true', 'false']).optional().meta({ description: 'true: only chats with an open flag on a reply' }),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const inboxChat = chatView
  .extend({
    version_number: z.number().int().meta({ description: 'The number of the version that answered the chat' }),
    first_visitor_message: z.string().nullable().meta({ description: "The visitor's first message; null before there is one" }),
    message_count: z.number().int().meta({ description: "The visitor's and the agent's messages together" }),
    flagged: z.boolean().meta({ description: 'Whether a reply of the chat has an open flag' }),
  })
  .meta({ id: 'InboxChat' });

export const inbox = z
  .object({
    conversations: z.number().int().meta({ description: "The workspace's conversations, whatever the filters" }),
    chats: z.array(inboxChat).meta({ description: 'Newest first' }),
    next_cursor: nextCursor,
  })
  .meta({ id: 'Inbox', description: 'Replay chats of evals are never listed or counted' });

export const sendMessageInput = z.object({ text: z.string().min(1).max(10_000) }).meta({ id: 'SendMessage' });

export const agentReply = z
  .object({ message_id: z.string(), reply: z.string(), visitor_message_id: z.string() })
  .meta({ id: 'AgentReply' });
