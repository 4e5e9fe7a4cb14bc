import { judgeAnswer, type Verdict } from '@svc/domain';
import { type ChatMessage, modelProvider, type ProviderSettings } from './runtime.ts';
import type { Step } from './transcript.ts';

export interface Grade {
  verdict: Verdict;
  /** One sentence: the judge's, the grader's finding, or what went wrong. */
  reasoning: string;
  /** The judge's tokens (none for the deterministic grader). */
  tokens: { input: number; output: number };
}

/** What the grader reads: the replay's messages and what the case expects. */
export interface Replay {
  messages: ChatMessage[];
  expected: string;
}

export interface Grader {
  /** The judge model (`provider:model`), or null for the deterministic grader. */
  model: string | null;
  grade(replay: Replay): Promise<Grade>;
}

const noTokens = () => ({ input: 0, output: 0 });

/** The phrases in double quotes ("…" or “…”) of an expected outcome, in order. */
export function quotedPhrases(expected: string): string[] {
  return [...expected.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => (m[1] ?? m[2]!).trim()).filter(Boolean);
}

const listed = (phrases: string[]) => phrases.map((p) => `"${p}"`).join(', ');

/**
 * The grader when no judge model is configured: each phrase in double quotes in the expected outcome must appear,
 * case-insensitively, in the replay's last agent reply.
 */
export function gradeByPhrases({ messages, expected }: Replay): Grade {
  const phrases = quotedPhrases(expected);
  if (phrases.length === 0) return { verdict: 'error', reasoning: 'needs a quoted phrase or a judge model', tokens: noTokens() };
  const reply = messages.findLast((m) => m.role === 'agent')?.text.toLowerCase() ?? '';
  const missing = phrases.filter((phrase) => !reply.includes(phrase.toLowerCase()));
  if (missing.length === 0) return { verdict: 'pass', reasoning: `The last reply says ${listed(phrases)}.`, tokens: noTokens() };
  return { verdict: 'fail', reasoning: `The last reply does not say ${listed(missing)}.`, tokens: noTokens() };
}

export const deterministicGrader: Grader = { model: null, grade: async (replay) => gradeByPhrases(replay) };

/** One sentence: a single line with no sentence ending followed by another sentence. */
export const isOneSentence = (text: string) => !/[\r\n]/.test(text.trim()) && !/[.!?]["')\]]*\s+["'(]?[A-Z]/.test(text.trim());

/** The judge's answer when it is what was asked: the JSON object alone (a code fence around it tolerated). */
export function parseJudgeAnswer(text: string): { verdict: 'pass' | 'fail'; reasoning: string } | undefined {
  const json = text
    .trim()
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const answer = judgeAnswer.safeParse(value);
  if (!answer.success) return undefined;
  const reasoning = answer.data.reasoning.trim();
  return isOneSentence(reasoning) ? { verdict: answer.data.verdict, reasoning } : undefined;
}

const instructions = [
  'You grade a support agent. You read a conversation between a visitor and the agent, and the outcome expected of',
  "the agent. Decide whether the agent's replies meet the expected outcome.",
  'Answer with a JSON object and nothing else: {"verdict": "pass" or "fail", "reasoning": "one sentence saying why"}.',
].join(' ');

const transcriptOf = ({ messages, expected }: Replay) =>
  [
    'Conversation:',
    ...messages.map((m) => `${m.role === 'visitor' ? 'Visitor' : 'Agent'}: ${m.text}`),
    '',
    `Expected outcome: ${expected}`,
  ].join('\n');

const correction =
  'That answer was not what was asked. Answer with only the JSON object {"verdict": "pass" or "fail", "reasoning": "one sentence"}.';

/** Why a model call failed, as the provider said it (the SDKs' messages carry the HTTP status and the provider's text). */
const failure = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * A judge: a model of another family than the agent's reads the replay and the expected outcome and answers pass
 * or fail with one sentence. A malformed answer is asked again once, then the case is an error. Calls answered 429
 * or 5xx are retried by the provider's client (honouring Retry-After) before the case is an error with its message.
 */
export function judge(model: string, settings: ProviderSettings): Grader {
  const provider = modelProvider(model, settings, 'judge');
  return {
    model,
    async grade(replay) {
      if (!provider) return { verdict: 'error', reasoning: `judge model "${model}" is not openai:… or anthropic:…`, tokens: noTokens() };
      const steps: Step[] = [{ kind: 'visitor', text: transcriptOf(replay) }];
      const tokens = noTokens();
      for (let attempt = 0; attempt < 2; attempt++) {
        let text: string;
        try {
          const turn = await provider.next({ system: instructions, steps, tools: [] });
          tokens.input += turn.usage.input;
          tokens.output += turn.usage.output;
          text = turn.text;
        } catch (error) {
          return { verdict: 'error', reasoning: `the judge ${model} failed: ${failure(error)}`, tokens };
        }
        const answer = parseJudgeAnswer(text);
        if (answer) return { ...answer, tokens };
        steps.push({ kind: 'agent', text: text || '(empty)' }, { kind: 'visitor', text: correction });
      }
      return { verdict: 'error', reasoning: `the judge ${model} answered malformed JSON twice`, tokens };
    },
  };
}
