import type { FlagView } from '@svc/domain';
import { flagSection } from './flag-section.ts';
import { code, plural } from './markdown.ts';

export interface FlagsDigestInput {
  workspace: string;
  /** Flags as the API shows them; the digest keeps the open ones with a note. */
  flags: FlagView[];
}

type NotedFlag = FlagView & { note: string };

/** Whether a flag has a section in the digest: open, with a note. */
export const inFlagsDigest = (flag: FlagView): flag is NotedFlag => flag.status === 'open' && Boolean(flag.note);

const instructions = (workspace: string) => [
  `svc hosts the conversational agents of this repository (workspace ${code(workspace)}). Each section below is`,
  'one agent reply that a person marked wrong, with their note saying what the agent should have said.',
  '',
  '## How to work on these flags',
  '',
  '- **Where the agent is.** Each agent is a folder of this repository: `agents/<slug>/agent.yaml` (its model,',
  '  tools and rules), `agents/<slug>/instructions.md` (its instructions) and `agents/<slug>/knowledge/` (the',
  "  documents it searches). The slug is the flag's agent.",
  '- **How to fix.** Read what the agent saw (the conversation, its tool calls and their responses, its knowledge',
  '  hits) to find why it answered as it did, then change its instructions, tools or knowledge so it answers every',
  '  conversation like this one as the note says. Never special-case the exact sentence of the conversation: the',
  '  fix must hold for any visitor who asks the same thing in other words.',
  '- **How to check.** Each flag is an eval case: `svc eval` replays its visitor messages and a judge compares the',
  "  reply with the note. Deploy your change with `svc push` (it deploys the branch to the branch's environment,",
  '  `feat/x` to `feat-x`), then run `svc eval --env <branch env>`; it exits 1 while any case fails.',
];

/** Flags by agent, then oldest first, ids breaking ties: the same flags always give the same text. */
const byAgentThenAge = (a: NotedFlag, b: NotedFlag): number =>
  compare(a.agent, b.agent) || compare(a.created_at, b.created_at) || compare(a.id, b.id);

// Code-unit order, not the locale's: the digest must not depend on the machine that renders it.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The flags the digest shows, in the order it shows them. */
export const digestFlags = (flags: FlagView[]): NotedFlag[] => flags.filter(inFlagsDigest).sort(byAgentThenAge);

/**
 * The digest of `flags` (sorted by `digestFlags`) showing the first `shown` of them; `more` is the line that says
 * where the rest are, put where the index stops.
 */
export function flagsDigestOf(workspace: string, flags: NotedFlag[], shown = flags.length, more?: string): string {
  const title = `# Flags digest of ${code(workspace)}`;
  if (flags.length === 0) return `${title}\n\nNo open flags with a note: nothing to fix.\n`;

  const agents = [...new Set(flags.map((f) => f.agent))];
  const kept = flags.slice(0, shown);
  const isKept = new Set(kept);
  const index = kept.map(
    (f) => `- [${code(f.id)}](#${encodeURIComponent(f.id)}): agent ${code(f.agent)}, v${f.version.number} on ${code(f.environment)}`,
  );
  const sections = [...new Set(kept.map((f) => f.agent))].flatMap((agent) => {
    const own = flags.filter((f) => f.agent === agent);
    return [`## Agent ${code(agent)}: ${plural(own.length, 'flag')}`, ...own.filter((f) => isKept.has(f)).map(flagSection)];
  });
  return [
    title,
    '',
    ...instructions(workspace),
    '',
    `## ${plural(flags.length, 'open flag')} on ${plural(agents.length, 'agent')}`,
    '',
    ...index,
    ...(more ? ['', more] : []),
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

/** The flags digest: the markdown `svc flags` prints and `GET .../flags.md` returns. */
export function renderFlagsDigest({ workspace, flags }: FlagsDigestInput): string {
  return flagsDigestOf(workspace, digestFlags(flags));
}
