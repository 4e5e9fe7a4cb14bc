import { describe, expect, it } from 'vitest';
import { type Action, allows, allowsChange, permissions, type Role, roles, roleTable } from '../src/index.ts';

/** What each role may do, written out: a change to the table must change this too. */
const intended: Record<Role, Action[]> = {
  supervisor: ['flag', 'writeCases', 'overrideVerdicts'],
  developer: [
    'flag',
    'writeCases',
    'overrideVerdicts',
    'changeAnyFlag',
    'changeAnyCase',
    'verifyPhones',
    'runChats',
    'deploy',
    'setSecrets',
    'setSender',
    'runEvals',
    'linkRepositories',
    'getDailyDigest',
  ],
  owner: Object.keys(permissions) as Action[],
};

describe('the permission table', () => {
  const actions = Object.keys(permissions) as Action[];

  it.each(roles.flatMap((role) => actions.map((action) => [role, action] as const)))('%s may %s as intended', (role, action) => {
    expect(allows(role, action)).toBe(intended[role].includes(action));
  });

  it('lets an owner do everything a developer may, and a developer everything a supervisor may', () => {
    for (const action of actions) {
      if (allows('supervisor', action)) expect(allows('developer', action), action).toBe(true);
      if (allows('developer', action)) expect(allows('owner', action), action).toBe(true);
    }
  });

  it('lets a member change what they made under the own-action, and anything under the any-action', () => {
    expect(allowsChange('supervisor', 'usr_ana', 'usr_ana', 'flag', 'changeAnyFlag')).toBe(true);
    expect(allowsChange('supervisor', 'usr_bo', 'usr_ana', 'flag', 'changeAnyFlag')).toBe(false);
    expect(allowsChange('supervisor', null, 'usr_ana', 'writeCases', 'changeAnyCase')).toBe(false);
    expect(allowsChange('developer', 'usr_bo', 'usr_ana', 'flag', 'changeAnyFlag')).toBe(true);
    expect(allowsChange('developer', null, 'usr_ana', 'writeCases', 'changeAnyCase')).toBe(true);
  });

  it('reads as a table with a row per action and a column per role', () => {
    const lines = roleTable().split('\n');
    expect(lines[0]).toBe('| a member may | `supervisor` | `developer` | `owner` |');
    expect(lines).toHaveLength(2 + actions.length);
    expect(lines).toContain('| invite members, change their roles and remove them |  |  | yes |');
    expect(lines).toContain('| flag replies, and edit the notes of and remove the flags they made | yes | yes | yes |');
  });
});
