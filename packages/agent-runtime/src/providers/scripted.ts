import type { AgentManifest, ScriptedRule } from '../manifest.ts';
import type { ModelProvider, ModelRequest, ModelTurn, Step } from '../transcript.ts';
import { knowledgeToolName } from '../knowledge.ts';
import { compileWhen } from '../patterns.ts';

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, key: string) => values[key] ?? '');

/** Flattens a tool's JSON answer into `tool.FIELD` values for a reply template. */
function toolValues(content: string): Record<string, string> {
  const values: Record<string, string> = { tool: content };
  try {
    const parsed = JSON.parse(content) as { body?: unknown };
    const body = parsed.body && typeof parsed.body === 'object' ? (parsed.body as Record<string, unknown>) : {};
    for (const [key, value] of Object.entries(body)) values[`tool.${key}`] = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    // not JSON: only {{tool}} is available
  }
  return values;
}

/**
 * A deterministic model for local mode and tests: the first rule whose `when` matches the visitor's last
 * message may call a tool or search the knowledge, then replies from its template. No tokens, no network.
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

  return {
    family: 'scripted',
    model: 'scripted',
    async next(request: ModelRequest): Promise<ModelTurn> {
      const lastVisitor = [...request.steps].reverse().find((s): s is Extract<Step, { kind: 'visitor' }> => s.kind === 'visitor');
      const found = match(lastVisitor?.text ?? '');
      const none = { text: fill(fallback, {}), toolCalls: [], usage: { input: 0, output: 0 } };
      if (!found) return none;
      const values: Record<string, string> = Object.fromEntries(found.groups.map((g, i) => [`match.${i}`, g ?? '']));
      const last = request.steps.at(-1);
      if (last?.kind === 'visitor') {
        if (found.rule.tool) {
          const args = Object.fromEntries(Object.entries(found.rule.args ?? {}).map(([k, v]) => [k, fill(v, values)]));
          return { text: '', toolCalls: [{ id: 'call_1', name: found.rule.tool, args }], usage: { input: 0, output: 0 } };
        }
        if (found.rule.search) {
          const query = fill(found.rule.search, values);
          return { text: '', toolCalls: [{ id: 'call_1', name: knowledgeToolName, args: { query } }], usage: { input: 0, output: 0 } };
        }
      }
      if (last?.kind === 'tool_result') {
        Object.assign(values, last.name === knowledgeToolName ? { knowledge: knowledgeText(last.content) } : toolValues(last.content));
      }
      return { text: fill(found.rule.reply, values), toolCalls: [], usage: { input: 0, output: 0 } };
    },
  };
}

function knowledgeText(content: string): string {
  try {
    const hits = JSON.parse(content) as { hits?: { text: string }[] };
    return hits.hits?.[0]?.text ?? '';
  } catch {
    return '';
  }
}
