import type { EvalResultView, EvalRunDetailView } from '@svc/domain';
import { code, count, fenced, inline, trimmed, utc } from './markdown.ts';

/** What the report shows of a case beside its result: the turns replayed, the agent's replies, the expected outcome. */
export interface ReplayedCase {
  turns: string[];
  replies: string[];
  expected: string;
}

/** How many characters of each message the report shows; the expected outcome is always shown whole. */
export const reportLimits = { turn: 2_000, reply: 4_000, reasoning: 1_000 } as const;

const indented = (who: string, text: string, max: number) => `${who}:\n${trimmed(text, max).replace(/\r\n?/g, '\n').replace(/^/gm, '  ')}`;

/** The replay as a transcript: each visitor turn, then the agent's reply to it. */
function transcript({ turns, replies }: ReplayedCase): string {
  const entries = turns.flatMap((turn, i) => {
    const reply = replies[i];
    return [indented('Visitor', turn, reportLimits.turn), ...(reply === undefined ? [] : [indented('Agent', reply, reportLimits.reply)])];
  });
  const unanswered = turns.length - Math.min(replies.length, turns.length);
  const note =
    unanswered === 0 ? [] : [`_No reply to the last ${unanswered === 1 ? 'turn' : `${unanswered} turns`}: the replay stopped there._`];
  return [fenced(entries.join('\n\n')), ...note].join('\n\n');
}

const grader = (result: EvalResultView) => (result.judge === null ? 'Deterministic grader' : `Judge (${code(result.judge)})`);

/** The sentence that explains the verdict: the judge's or grader's, or the error. */
function finding(result: EvalResultView): string {
  const sentence = inline(result.reasoning, reportLimits.reasoning) || '_(no reasoning)_';
  return result.graded === 'error' ? `**Error:** ${sentence}` : `**${grader(result)}:** ${sentence}`;
}

function repeats(result: EvalResultView, run: EvalRunDetailView): string | undefined {
  if (run.repeat === 1) return undefined;
  const passed = `${result.repeats.passed}/${result.repeats.total} replays passed`;
  return result.flaky ? `flaky: ${passed}, ${run.min_pass} needed` : passed;
}

function facts(result: EvalResultView, run: EvalRunDetailView): string {
  const facts = [
    result.regression ? `passed in the live baseline${run.baseline_run_id ? ` (run ${code(run.baseline_run_id)})` : ''}` : undefined,
    result.replay_chat_id ? `replay chat ${code(result.replay_chat_id)}` : undefined,
    `${count(result.tokens.input)} input and ${count(result.tokens.output)} output tokens`,
  ];
  const line = facts.filter(Boolean).join(' · ');
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}`;
}

function override(result: EvalResultView): string | undefined {
  if (!result.override) return undefined;
  const { verdict, by, at } = result.override;
  return `**Overridden to ${verdict}** by ${code(by)}, ${utc(at)}; the grader said ${result.graded}.`;
}

/** A case as the report names it: its question (its first visitor turn, shortened) in quotes, then its id. */
export function caseName(result: Pick<EvalResultView, 'case_id' | 'question'>): string {
  return result.question ? `“${inline(result.question, 200)}” ${code(result.case_id)}` : code(result.case_id);
}

/** One case in full: how it ended, why, and the replay against what was expected. */
export function caseSection(result: EvalResultView, run: EvalRunDetailView, replayed: ReplayedCase | undefined): string {
  const head = [`agent ${code(result.agent)}`, repeats(result, run)].filter(Boolean).join(' · ');
  // Every case has a turn: none means the case is gone.
  const body = replayed?.turns.length
    ? [
        "**Replay** (the visitor turns sent, each followed by the agent's reply):",
        transcript(replayed),
        '**Expected outcome:**',
        fenced(replayed.expected),
      ]
    : ['_The case was deleted: its turns and expected outcome are gone._'];
  return [`### ${caseName(result)} · ${head}`, finding(result), override(result), facts(result, run), ...body]
    .filter((part) => part !== undefined)
    .join('\n\n');
}

/** A case on one line, for lists: its agent, replays and override, anything `notes` adds, and the finding. */
export function caseLine(result: EvalResultView, run: EvalRunDetailView, notes: string[] = []): string {
  const extra = [
    repeats(result, run),
    result.override ? `overridden by ${code(result.override.by)}, the grader said ${result.graded}` : undefined,
  ];
  const head = [`agent ${code(result.agent)}`, ...notes, ...extra].filter(Boolean).join(', ');
  return `- ${caseName(result)} (${head}): ${inline(result.reasoning, reportLimits.reasoning)}`;
}
