import type { Role } from './workspaces.ts';

const everyone: readonly Role[] = ['supervisor', 'developer', 'owner'];
const builders: readonly Role[] = ['developer', 'owner'];
const owners: readonly Role[] = ['owner'];

interface Rule {
  roles: readonly Role[];
  /** What the rule lets a member do, as the role table of docs/api.md says it. */
  may: string;
}

/**
 * What each role may do in a workspace: the one table core decides every write by (`authorize` in core), the console
 * follows to offer only what a member may do, and the role table of docs/api.md shows (a test holds them together). Every
 * member reads everything in the workspace; only the writes are here, and who gets the workspace's mails.
 *
 * Supervisors look after conversations: they flag, say what the agent should have said, and judge results. What
 * costs money, runs the agents with the environment's secrets, or weakens cases that others wrote and CI relies on
 * needs a developer.
 */
export const permissions = {
  flag: { roles: everyone, may: 'flag replies, and edit the notes of and remove the flags they made' },
  writeCases: { roles: everyone, may: 'add eval cases by hand, and change and remove the ones they added' },
  overrideVerdicts: { roles: everyone, may: 'override eval verdicts' },
  changeAnyFlag: { roles: builders, may: "edit the notes of and remove anyone's flags" },
  changeAnyCase: { roles: builders, may: "change and remove anyone's eval cases" },
  verifyPhones: { roles: builders, may: 'send verification codes and check them' },
  runChats: { roles: builders, may: 'start chats with agents and send them messages' },
  deploy: { roles: builders, may: 'push and publish agents' },
  setSecrets: { roles: builders, may: 'set secrets' },
  setSender: { roles: builders, may: 'configure the sender' },
  runEvals: { roles: builders, may: 'start and cancel eval runs' },
  linkRepositories: { roles: builders, may: 'link and unlink GitHub repositories' },
  manageMembers: { roles: owners, may: 'invite members, change their roles and remove them' },
  setTestNumbers: { roles: owners, may: 'set test numbers' },
  getDailyDigest: { roles: builders, may: 'get the daily mail of new flags' },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof permissions;

export const allows = (role: Role, action: Action): boolean => permissions[action].roles.includes(role);

/** Whether `actor` may change what `madeBy` made: their own under `own`, anyone's under `any`. */
export const allowsChange = (role: Role, madeBy: string | null, actor: string, own: Action, any: Action): boolean =>
  (madeBy !== null && madeBy === actor && allows(role, own)) || allows(role, any);

/** The role table of docs/api.md, from `permissions`. */
export function roleTable(): string {
  const roles: Role[] = ['supervisor', 'developer', 'owner'];
  const header = `| a member may | ${roles.map((role) => `\`${role}\``).join(' | ')} |`;
  const rows = Object.values(permissions).map(
    ({ roles: allowed, may }: Rule) => `| ${may} | ${roles.map((role) => (allowed.includes(role) ? 'yes' : '')).join(' | ')} |`,
  );
  return [header, `|---|${roles.map(() => ':-:').join('|')}|`, ...rows].join('\n');
}
