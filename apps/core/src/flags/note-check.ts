import {
  type ChatMessage,
  type Grader,
  gradeByPhrases,
  judge,
  parseBundle,
  type ProviderSettings,
  quotedPhrases,
  type Replay,
} from '@svc/agent-runtime';
import { DomainError, type FlagWarning } from '@svc/domain';
import { judgeFor } from '../evals/judges.ts';

/** A flagged reply as a grader reads it: the messages before it, the reply, and the agent of a version that gave it. */
export interface FlaggedReply {
  before: ChatMessage[];
  reply: string;
  agent: string;
  versionFiles: Record<string, string>;
}

/** The warning for a note the reply already meets, if it does; the flag is made all the same. */
export type NoteCheck = (flagged: FlaggedReply, note: string | null | undefined) => Promise<FlagWarning | undefined>;

const warning = (message: string): FlagWarning => ({ code: 'reply_already_passes', message });

/** Every phrase the note quotes is in the reply: the deterministic grader passes it as it is. */
function phrasesWarning(replay: Replay): FlagWarning | undefined {
  if (gradeByPhrases(replay).verdict !== 'pass') return undefined;
  const phrases = quotedPhrases(replay.expected)
    .map((p) => `"${p}"`)
    .join(', ');
  return warning(`this reply already says ${phrases}; the case would pass as it is: quote what the reply should have said instead`);
}

/** The judge an eval run would grade this agent's cases with, or null for the deterministic grader. */
function judgeOf(flagged: FlaggedReply, judges: readonly string[]): string | null {
  const model = parseBundle(flagged.versionFiles).agents.find((a) => a.slug === flagged.agent)?.manifest.model;
  if (model === undefined) return null;
  try {
    return judgeFor(model, judges);
  } catch (error) {
    // Every judge is of the agent's family: no run grades it until one is added, so the phrases are all there is.
    if (error instanceof DomainError) return null;
    throw error;
  }
}

/**
 * Grades a flagged reply against its note as a live run would, before anyone waits for one: by the judge that run
 * would use when judges are configured, else by the phrases the note quotes. A judge that fails to answer warns of
 * nothing: the check never keeps a reply from being flagged.
 */
export function createNoteCheck({ judges, models }: { judges: readonly string[]; models: ProviderSettings }): NoteCheck {
  const graders = new Map<string, Grader>();
  return async (flagged, note) => {
    if (!note) return undefined;
    const replay: Replay = { messages: [...flagged.before, { role: 'agent', text: flagged.reply }], expected: note };
    const model = judgeOf(flagged, judges);
    if (model === null) return phrasesWarning(replay);
    const grader = graders.get(model) ?? judge(model, models);
    graders.set(model, grader);
    const grade = await grader.grade(replay);
    if (grade.verdict !== 'pass') return undefined;
    return warning(
      `the judge ${model} passes this reply as it is (${grade.reasoning.replace(/[.\s]+$/, '')}); the case would pass as it is: ` +
        'say what the reply should have said instead',
    );
  };
}
