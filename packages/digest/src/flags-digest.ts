import type { FlagView } from '@svc/domain';
import { flagSection } from './flag-section.ts';
import { code, count, plural } from './markdown.ts';

export interface FlagsDigestInput {
  workspace: string;
  /** Flags as the API shows them; the digest keeps the open ones with a note, newest first. */
  flags: FlagView[];
  /** How many open flags with a note there are: more than the digest shows when it was given the newest only. */
  total?: number;
  /** The one agent the flags are of, when the digest was asked for one. */
  agent?: string;
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

/** Newest first, ids breaking ties: the same flags always give the same text. */
const newestFirst = (a: NotedFlag, b: NotedFlag): number => compare(b.created_at, a.created_at) || compare(b.id, a.id);

// Code-unit order, not the locale's: the digest must not depend on the machine that renders it.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The flags the digest shows, in the order it shows them. */
export const digestFlags = (flags: FlagView[]): NotedFlag[] => flags.filter(inFlagsDigest).sort(newestFirst);

/** Where the flags a digest leaves out are: `svc flags --all`, or one agent's with `--agent`. */
function moreLine(shown: number, total: number, agent: string | undefined): string {
  const all = agent ? `svc flags --all --agent ${agent}` : 'svc flags --all';
  const oneAgent = agent ? '' : ', `svc flags --agent <slug>` the newest of one agent';
  return `_${plural(total - shown, 'more open flag')} with a note ${total - shown === 1 ? 'is' : 'are'} not shown here: \`${all}\` prints every one${oneAgent}._`;
}

export interface FlagsDigestView {
  workspace: string;
  /** As `digestFlags` gives them. */
  flags: NotedFlag[];
  total: number;
  agent?: string;
}

/**
 * The digest of `flags` showing the first `shown` of them; `note` says where the rest are, put where the index stops
 * (the `service-flags` issue's, when it shows fewer than the digest).
 */
export function flagsDigestOf({ workspace, flags, total, agent }: FlagsDigestView, shown = flags.length, note?: string): string {
  const title = `# Flags digest of ${code(workspace)}${agent ? `, agent ${code(agent)}` : ''}`;
  if (total === 0) return `${title}\n\nNo open flags with a note: nothing to fix.\n`;

  const kept = flags.slice(0, shown);
  const index = kept.map(
    (f) => `- [${code(f.id)}](#${encodeURIComponent(f.id)}): agent ${code(f.agent)}, v${f.version.number} on ${code(f.environment)}`,
  );
  const more = [...(flags.length < total ? [moreLine(flags.length, total, agent)] : []), ...(note ? [note] : [])];
  const heading = `## ${plural(total, 'open flag')}${kept.length < total ? `, the newest ${count(kept.length)} below` : ''}`;
  return [
    title,
    '',
    ...instructions(workspace),
    '',
    heading,
    '',
    ...index,
    ...more.flatMap((line) => ['', line]),
    '',
    kept.map(flagSection).join('\n\n'),
    '',
  ].join('\n');
}

/** The flags digest: the markdown `svc flags` prints and `GET .../flags.md` returns. */
export function renderFlagsDigest({ workspace, flags, total, agent }: FlagsDigestInput): string {
  const shown = digestFlags(flags);
  return flagsDigestOf({ workspace, flags: shown, total: total ?? shown.length, agent });
}
