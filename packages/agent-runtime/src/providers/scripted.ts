import type { AgentManifest, ScriptedRule } from '../manifest.ts';
import type { ModelProvider, ModelRequest, ModelTurn, Step } from '../transcript.ts';
import { knowledgeToolName } from '../knowledge.ts';
import { compileWhen } from '../patterns.ts';

const placeholder = /\{\{\s*([\w.]+)\s*\}\}/g;

const fill = (template: string, values: Record<string, string>) => template.replace(placeholder, (_, key: string) => values[key] ?? '');

/** Whether every placeholder of `template` has a value: a reply with a hole in it is never sent. */
const fills = (template: string, values: Record<string, string>) =>
  [...template.matchAll(placeholder)].every((m) => Object.hasOwn(values, m[1]!));

/**
 * What a tool's result offers a reply template: `tool.FIELD` for each field of the backend's JSON answer, or
 * undefined when the call failed (no answer, or an HTTP error).
 */
function toolValues(content: string): Record<string, string> | undefined {
  let parsed: { status?: number | null; body?: unknown; error?: string | null };
  try {
    parsed = JSON.parse(content) as typeof parsed;
  } catch {
    return undefined;
  }
  if (parsed.error || typeof parsed.status !== 'number' || parsed.status >= 400) return undefined;
  const values: Record<string, string> = { tool: content };
  const body = parsed.body && typeof parsed.body === 'object' ? (parsed.body as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(body)) values[`tool.${key}`] = typeof value === 'string' ? value : JSON.stringify(value);
  return values;
}

/** The best passage of a knowledge search, or undefined when it found nothing. */
function knowledgeValues(content: string): Record<string, string> | undefined {
  try {
    const text = (JSON.parse(content) as { hits?: { text: string }[] }).hits?.[0]?.text;
    return text ? { knowledge: text } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A deterministic model for local mode and tests: the first rule whose `when` matches the visitor's last
 * message may call a tool or search the knowledge, then replies from its template. When the tool or the search
 * gives nothing to fill the reply with, the rule's `on_error` answers, else the agent's fallback.
 * No tokens, no network.
 */
export function scriptedProvider(manifest: AgentManifest): ModelProvider {
  const rules = (manifest.scripted?.rules ?? []).map((rule) => ({ rule, when: compileWhen(rule.when) }));
  const fallback = manifest.scripted?.fallback ?? '';
  const match = (text: string): { rule: ScriptedRule; groups: string[] } | undefined => {
    for (const { rule, when } of rules) {
      const found = when.exec(text);
      if (found) return { rule, groups: [...found] };
    }
    return undefined;
  };
  const answer = (text: string): ModelTurn => ({ text, toolCalls: [], usage: { input: 0, output: 0 } });

  return {
    family: 'scripted',
    model: 'scripted',
    async next(request: ModelRequest): Promise<ModelTurn> {
      const lastVisitor = [...request.steps].reverse().find((s): s is Extract<Step, { kind: 'visitor' }> => s.kind === 'visitor');
      const found = match(lastVisitor?.text ?? '');
      if (!found) return answer(fill(fallback, {}));
      const matched: Record<string, string> = Object.fromEntries(found.groups.map((g, i) => [`match.${i}`, g ?? '']));
      const last = request.steps.at(-1);
      if (last?.kind === 'visitor') {
        if (found.rule.tool) {
          const args = Object.fromEntries(Object.entries(found.rule.args ?? {}).map(([k, v]) => [k, fill(v, matched)]));
          return { text: '', toolCalls: [{ id: 'call_1', name: found.rule.tool, args }], usage: { input: 0, output: 0 } };
        }
        if (found.rule.search) {
          const query = fill(found.rule.search, matched);
          return { text: '', toolCalls: [{ id: 'call_1', name: knowledgeToolName, args: { query } }], usage: { input: 0, output: 0 } };
        }
      }
      let values: Record<string, string> | undefined = matched;
      if (last?.kind === 'tool_result') {
        const result = last.name === knowledgeToolName ? knowledgeValues(last.content) : toolValues(last.content);
        values = result && { ...matched, ...result };
      }
      if (values && fills(found.rule.reply, values)) return answer(fill(found.rule.reply, values));
      return answer(fill(found.rule.on_error ?? fallback, matched));
    },
  };
}
