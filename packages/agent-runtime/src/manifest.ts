import { z } from 'zod';
import { whenProblem } from './patterns.ts';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/, 'expected a slug: lowercase letters, digits and dashes');

/** `svc.yaml` at the repository root. */
export const workspaceManifest = z
  .object({
    workspace: slug,
    /** `false` for a workspace that only uses phone verification. */
    agent: z.boolean().default(true),
  })
  .strict();
export type WorkspaceManifest = z.infer<typeof workspaceManifest>;

/** `provider:model`, or `scripted`. */
export const modelSpec = z
  .string()
  .regex(/^(scripted|(openai|anthropic):[\w.:/-]+)$/, 'expected "scripted", "openai:<model>" or "anthropic:<model>"');

const template = z.string().max(2000);

export const toolSpec = z
  .object({
    name: z.string().regex(/^[a-zA-Z][\w-]{0,63}$/, 'expected a tool name of letters, digits, _ and -'),
    description: z.string().min(1).max(1000),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
    /** May use {{secrets.NAME}} and {{args.NAME}}. */
    url: template,
    headers: z.record(z.string(), template).default({}),
    /** JSON Schema of the arguments the model passes. */
    parameters: z
      .object({
        type: z.literal('object'),
        properties: z.record(z.string(), z.unknown()).default({}),
        required: z.array(z.string()).optional(),
      })
      .passthrough()
      .default({ type: 'object', properties: {} }),
    timeout_ms: z.number().int().min(100).max(60_000).default(10_000),
  })
  .strict();
export type ToolSpec = z.infer<typeof toolSpec>;

const secretReference = /\{\{\s*secrets\.([\w-]+)\s*\}\}/g;

/** The environment secrets a tool's URL and headers use, by name. */
export const secretsOfTool = (tool: ToolSpec): string[] =>
  [
    ...new Set([tool.url, ...Object.values(tool.headers)].flatMap((template) => [...template.matchAll(secretReference)].map((m) => m[1]!))),
  ].sort();

/** The environment secrets an agent's tools use, by name. */
export const secretsOfAgent = (agent: AgentManifest): string[] => [...new Set(agent.tools.flatMap(secretsOfTool))].sort();

/** A rule of the `scripted` provider: when the visitor's text matches, optionally call a tool or search, then reply. */
export const scriptedRule = z
  .object({
    when: z
      .string()
      .min(1)
      .max(1000)
      .superRefine((pattern, ctx) => {
        const problem = whenProblem(pattern);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('a case-insensitive regular expression on the visitor text, RE2 syntax'),
    tool: z.string().optional(),
    args: z.record(z.string(), z.string()).optional(),
    search: z.string().optional().describe('a knowledge query'),
    reply: z.string().min(1).describe('may use {{match.N}}, {{tool.FIELD}} and {{knowledge}}'),
    on_error: z
      .string()
      .min(1)
      .optional()
      .describe(
        "the reply when the rule's tool call fails (unreachable, refused, an HTTP error), or the reply names a {{tool.FIELD}} or {{knowledge}} the answer lacks; may use {{match.N}}; the agent's fallback if unset",
      ),
  })
  .strict();
export type ScriptedRule = z.infer<typeof scriptedRule>;

/** `agents/<slug>/agent.yaml`. */
export const agentManifest = z
  .object({
    name: z.string().min(1).max(100),
    model: modelSpec,
    /** The instructions file, relative to the agent's folder. */
    instructions: z.string().default('instructions.md'),
    temperature: z.number().min(0).max(2).optional(),
    tools: z.array(toolSpec).default([]),
    scripted: z
      .object({ rules: z.array(scriptedRule).max(200).default([]), fallback: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((agent, ctx) => {
    if (agent.model === 'scripted' && !agent.scripted) {
      ctx.addIssue({ code: 'custom', path: ['scripted'], message: 'a scripted model needs a scripted: section with rules and a fallback' });
    }
    const names = new Set(agent.tools.map((t) => t.name));
    agent.scripted?.rules.forEach((rule, i) => {
      if (rule.tool && !names.has(rule.tool)) {
        ctx.addIssue({ code: 'custom', path: ['scripted', 'rules', i, 'tool'], message: `no tool named "${rule.tool}" in tools` });
      }
    });
  });
export type AgentManifest = z.infer<typeof agentManifest>;

/** An agent as deployed: its manifest, instructions and knowledge files, by slug. */
export interface AgentDefinition {
  slug: string;
  manifest: AgentManifest;
  instructions: string;
  knowledge: { path: string; content: string }[];
}

export interface Bundle {
  workspace: WorkspaceManifest;
  agents: AgentDefinition[];
}
