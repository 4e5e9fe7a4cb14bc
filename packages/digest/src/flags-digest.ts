import type { FlagView } from '@svc/domain';

export interface FlagsDigestInput {
  workspace: string;
  /** Flags as the API shows them; the digest keeps the open ones with a note. */
  flags: FlagView[];
}

const instructions = [
  'You are reading the open flags of this workspace: agent replies that a supervisor marked as wrong,',
  'each with a note saying what the agent should have said. For each flag, find why the agent answered',
  'as it did (instructions, tools, knowledge files under agents/<agent>/), change the agent so it would say what the',
  'note asks, and run `svc eval` to check: every flag is also an eval case.',
];

const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

function renderFlag(flag: FlagView & { note: string }, index: number): string {
  const conversation = flag.conversation.map((m) => `- **${m.role}**: ${m.text.replace(/\n/g, ' ')}`);
  return [
    `## ${index + 1}. ${flag.agent} on ${flag.environment} (${flag.id})`,
    '',
    `Version v${flag.version.number}, channel ${flag.channel}.`,
    '',
    '### Conversation before the reply',
    '',
    ...(conversation.length > 0 ? conversation : ['_(the flagged reply opened the conversation)_']),
    '',
    '### The flagged reply',
    '',
    quote(flag.reply),
    '',
    '### What it should have said',
    '',
    quote(flag.note),
  ].join('\n');
}

/** The flags digest: the markdown `svc flags` prints and `GET .../flags.md` returns. */
export function renderFlagsDigest({ workspace, flags: all }: FlagsDigestInput): string {
  const flags = all.filter((f): f is FlagView & { note: string } => f.status === 'open' && Boolean(f.note));
  const header = [`# Open flags in ${workspace}`, '', ...instructions, ''];
  if (flags.length === 0) return [...header, 'No open flags.', ''].join('\n');
  const count = `${flags.length} open flag${flags.length === 1 ? '' : 's'}.`;
  return [...header, count, '', flags.map(renderFlag).join('\n\n'), ''].join('\n');
}
