import { type Invitation, type Member, type MemberList, roles } from '@svc/domain';
import { Argument, type Command, Option } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError, exitCodes } from '../errors.ts';
import { printJson, printTable } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

async function context(command: Command) {
  const options = globalOptions(command);
  const { token } = await requireCredential(options.baseUrl);
  const workspace = await resolveWorkspace(command);
  const base = `/api/developer/v1/${encodeURIComponent(workspace)}`;
  return { api: new Api(options.baseUrl, token), options, workspace, base };
}

/** The member, or else the pending invitation, of an address. */
async function find(api: Api, base: string, workspace: string, email: string): Promise<{ member?: Member; invitation?: Invitation }> {
  const list = await api.request<MemberList>('GET', `${base}/members`);
  const wanted = email.trim().toLowerCase();
  const member = list.members.find((m) => m.email === wanted);
  const invitation = list.invitations.find((i) => i.email === wanted);
  if (!member && !invitation)
    throw new CliError(`${email} is neither a member of ${workspace} nor invited`, exitCodes.failure, 'member_not_found');
  return { member, invitation };
}

export function registerMembers(program: Command): void {
  const members = program
    .command('members')
    .description("the workspace's members and pending invitations")
    .action(async (_opts, command: Command) => {
      const { api, options, base } = await context(command);
      const list = await api.request<MemberList>('GET', `${base}/members`);
      if (options.json) return printJson(list);
      printTable(
        ['email', 'role', 'status'],
        [
          ...list.members.map((m) => [m.email, m.role, `member since ${m.added_at.slice(0, 10)}`]),
          ...list.invitations.map((i) => [i.email, i.role, `invited by ${i.invited_by}, expires ${i.expires_at.slice(0, 10)}`]),
        ],
      );
    });

  members
    .command('add')
    .description('invite someone by email (owners); they accept in the mailed link')
    .argument('<email>')
    .addOption(new Option('--role <role>', 'their role').choices(roles).makeOptionMandatory())
    .action(async (email: string, opts: { role: string }, command: Command) => {
      const { api, options, workspace, base } = await context(command);
      const invited = await api.request<Invitation>('POST', `${base}/members`, { email, role: opts.role });
      if (options.json) return printJson(invited);
      process.stdout.write(
        `Invited ${invited.email} to ${workspace} as ${invited.role}; the invitation is mailed and works until ${invited.expires_at.slice(0, 10)}.\n`,
      );
    });

  members
    .command('role')
    .description("change a member's role (owners)")
    .argument('<email>')
    .addArgument(new Argument('<role>').choices(roles))
    .action(async (email: string, role: string, _opts, command: Command) => {
      const { api, options, workspace, base } = await context(command);
      const { member } = await find(api, base, workspace, email);
      if (!member)
        throw new CliError(
          `${email} is invited, not yet a member of ${workspace}: invite them again with the role`,
          exitCodes.failure,
          'member_not_found',
        );
      const changed = await api.request<Member>('PATCH', `${base}/members/${encodeURIComponent(member.user_id)}`, { role });
      if (options.json) return printJson(changed);
      process.stdout.write(`${changed.email} is now ${changed.role} in ${workspace}.\n`);
    });

  members
    .command('remove')
    .description('remove a member or revoke their invitation (owners); your own address leaves the workspace')
    .argument('<email>')
    .action(async (email: string, _opts, command: Command) => {
      const { api, options, workspace, base } = await context(command);
      const { member, invitation } = await find(api, base, workspace, email);
      if (member) await api.request('DELETE', `${base}/members/${encodeURIComponent(member.user_id)}`);
      else if (invitation) await api.request('DELETE', `${base}/invitations/${encodeURIComponent(invitation.id)}`);
      const said = member ? `Removed ${member.email} from ${workspace}.` : `Revoked the invitation of ${email} to ${workspace}.`;
      if (options.json) return printJson({ email: email.trim().toLowerCase(), removed: Boolean(member), invitation_revoked: !member });
      process.stdout.write(`${said}\n`);
    });
}
