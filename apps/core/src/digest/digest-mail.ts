import { escape } from '../identity/auth-mails.ts';
import type { MailContent } from '../platform/mail.ts';

/** Notes shown in the mail, and how much of each: the rest is one command away. */
export const notesShown = 3;
const noteLength = 160;

export interface DigestMailInput {
  workspace: string;
  /** New flags since the last digest mail. */
  count: number;
  /** The oldest of them, up to `notesShown`. */
  flags: { agent: string; note: string }[];
  /** The console inbox, showing flagged chats. */
  inboxUrl: string;
}

const truncate = (note: string) => {
  const line = note.replace(/\s+/g, ' ').trim();
  return line.length > noteLength ? `${line.slice(0, noteLength - 1).trimEnd()}…` : line;
};

/**
 * The daily mail to a workspace's owners and developers: how many replies were flagged since the last one, the first
 * notes, and how to hand them all to a coding agent. The notes are the supervisors' text: escaped in the HTML part.
 */
export function digestMail(to: string, { workspace, count, flags, inboxUrl }: DigestMailInput): MailContent {
  const subject = `${count} new flagged ${count === 1 ? 'reply' : 'replies'} in ${workspace}`;
  const notes = flags.map((flag) => ({ agent: flag.agent, note: truncate(flag.note) }));
  const more = count - notes.length;
  const text = [
    `${subject}.`,
    '',
    ...notes.map((n) => `- ${n.agent}: ${n.note}`),
    ...(more > 0 ? [`- and ${more} more`] : []),
    '',
    'Hand them to your coding agent:',
    '',
    '    svc flags --save flags.md',
    '',
    'then ask your coding agent to fix them and run `svc eval`.',
    '',
    `See them in the inbox: ${inboxUrl}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px">
<h1 style="font-size:20px">${escape(subject)}</h1>
<ul>
${notes.map((n) => `<li><b>${escape(n.agent)}</b>: ${escape(n.note)}</li>`).join('\n')}${more > 0 ? `\n<li>and ${more} more</li>` : ''}
</ul>
<p>Hand them to your coding agent:</p>
<pre style="background:#f4f4f4;padding:10px;border-radius:6px">svc flags --save flags.md</pre>
<p>then ask your coding agent to fix them and run <code>svc eval</code>.</p>
<p><a href="${escape(inboxUrl)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">See them in the inbox</a></p>
<p style="color:#555;font-size:13px">Or open this link: ${escape(inboxUrl)}<br>You get this mail as an owner or developer of ${escape(workspace)}, on days with new flags.</p>
</body></html>`;
  return { to, subject, text, html };
}
