import type { MailContent } from '../platform/mail.ts';

/** Text made safe to place in HTML, in an element or an attribute. */
export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function layout(title: string, paragraphs: string[], link: string, button: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:520px">
<h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
<p><a href="${escape(link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escape(button)}</a></p>
<p style="color:#555;font-size:13px">Or open this link: ${escape(link)}<br>If you did not ask for this, ignore this mail: nothing happens until you click.</p>
</body></html>`;
}

/**
 * The mail of `svc login --email`: the user code to compare, and the link to the approval page. It carries no
 * text the requester chose (client name, host name): anyone can ask for this mail to be sent to anyone.
 */
export function deviceLoginMail(to: string, userCode: string, link: string): MailContent {
  return {
    to,
    // Not the code: a subject is stored unsealed, shown in notifications and kept in mail logs.
    subject: 'Sign in to svc from your terminal',
    text: [
      `Someone, hopefully you, ran \`svc login --email ${to}\` and asks to sign in to svc.`,
      '',
      `Code: ${userCode}`,
      'Open this link, check that the code matches the one in YOUR terminal, then approve:',
      link,
      '',
      'The link works for 15 minutes. If you did not run svc login yourself, ignore this mail: nothing happens until you click Approve.',
    ].join('\n'),
    html: layout(
      'Sign in to svc',
      [
        `Someone, hopefully you, ran <code>svc login --email</code> and asks to sign in to svc as <b>${escape(to)}</b>.`,
        `Code: <b style="font-family:monospace;font-size:18px">${escape(userCode)}</b><br>Check that it matches the code in <b>your</b> terminal before approving.`,
      ],
      link,
      'Review and approve',
    ),
  };
}

/** The console's magic sign-in link. */
export function consoleLoginMail(to: string, link: string): MailContent {
  return {
    to,
    subject: 'Your svc sign-in link',
    text: [`Open this link to sign in to the svc console as ${to}:`, link, '', 'The link works for 15 minutes, once.'].join('\n'),
    html: layout('Sign in to svc', [`Sign in to the svc console as <b>${escape(to)}</b>.`], link, 'Sign in'),
  };
}

/**
 * An invitation to a workspace. Like the sign-in mails it carries no text the inviter typed: the workspace's slug,
 * the role and the inviter's address are all checked or ours.
 */
export function invitationMail(to: string, invitation: { workspace: string; role: string; invitedBy: string }, link: string): MailContent {
  const { workspace, role, invitedBy } = invitation;
  return {
    to,
    subject: `${invitedBy} invited you to the svc workspace ${workspace}`,
    text: [
      `${invitedBy} invited you to join the svc workspace ${workspace} as ${role}.`,
      '',
      'Open this link to sign in (an account is created for you if needed) and review the invitation:',
      link,
      '',
      'The invitation works for 7 days. Nothing happens until you click Accept on that page.',
    ].join('\n'),
    html: layout(
      `Join ${workspace} on svc`,
      [`<b>${escape(invitedBy)}</b> invited you to join the svc workspace <b>${escape(workspace)}</b> as <b>${escape(role)}</b>.`],
      link,
      'Review the invitation',
    ),
  };
}
