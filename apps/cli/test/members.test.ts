import { BrowserSession, formField, removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform({ localMode: true });
  const token = await createUserWithToken(platform, 'ada@example.com');
  await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } });
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, SVC_WORKSPACE: 'acme', XDG_CONFIG_HOME: tempDir() };
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

/** Opens the invitation mailed to `email` (dev mailbox) and accepts it; returns a token of theirs. */
async function accept(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const { messages } = (await request(`${platform.url}/dev/mailbox.json`)).body as { messages: { to: string; text: string }[] };
      link = messages.map((m) => (m.to === email ? /\/invitations\/[\w-]+/.exec(m.text)?.[0] : undefined)).find(Boolean);
      return link;
    })
    .toBeDefined();
  const browser = new BrowserSession(platform.url);
  const offer = await browser.get(link!);
  await browser.post(`${link}/sign-in`, { csrf_token: formField(offer.body, 'csrf_token') });
  const page = await browser.get(link!);
  expect((await browser.post(`${link}/accept`, { csrf_token: formField(page.body, 'csrf_token') })).status).toBe(303);
  return createUserWithToken(platform, email);
}

describe('svc members', () => {
  it('adds (invites), lists as a table and as JSON, changes a role and removes', async () => {
    const added = await runSvc(['members', 'add', 'Sue@Example.com', '--role', 'supervisor'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^Invited sue@example\.com to acme as supervisor; the invitation is mailed and works until \d{4}-\d{2}-\d{2}\.\n$/,
    );

    const pending = await runSvc(['members'], env);
    const [header, ...rows] = pending.stdout.trim().split('\n');
    expect(header).toMatch(/^EMAIL\s+ROLE\s+STATUS$/);
    expect(rows[0]).toMatch(/^ada@example\.com\s+owner\s+member since \d{4}-\d{2}-\d{2}$/);
    expect(rows[1]).toMatch(/^sue@example\.com\s+supervisor\s+invited by ada@example\.com, expires \d{4}-\d{2}-\d{2}$/);

    const sue = await accept('sue@example.com');
    const asJson = JSON.parse((await runSvc(['members', '--json'], env)).stdout);
    expect(asJson.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['ada@example.com', 'owner'],
      ['sue@example.com', 'supervisor'],
    ]);
    expect(asJson.invitations).toEqual([]);

    const role = await runSvc(['members', 'role', 'sue@example.com', 'developer'], env);
    expect(role).toMatchObject({ code: 0, stdout: 'sue@example.com is now developer in acme.\n' });
    const asSue = await runSvc(['workspaces', '--json'], { ...env, SVC_TOKEN: sue });
    expect(JSON.parse(asSue.stdout).workspaces).toEqual([expect.objectContaining({ slug: 'acme', role: 'developer' })]);

    const removed = await runSvc(['members', 'remove', 'sue@example.com'], env);
    expect(removed).toMatchObject({ code: 0, stdout: 'Removed sue@example.com from acme.\n' });
    const afterwards = await runSvc(['members'], { ...env, SVC_TOKEN: sue });
    expect(afterwards.code).toBe(1);
    expect(afterwards.stderr).toContain('(workspace_not_found)');
  });

  it('remove revokes a pending invitation', async () => {
    await runSvc(['members', 'add', 'maybe@example.com', '--role', 'developer'], env);
    const revoked = await runSvc(['members', 'remove', 'maybe@example.com'], env);
    expect(revoked).toMatchObject({ code: 0, stdout: 'Revoked the invitation of maybe@example.com to acme.\n' });
    expect((await runSvc(['members'], env)).stdout).not.toContain('maybe@example.com');
  });

  it('fails clearly: an unknown role is a usage error, and the server refusals keep their codes', async () => {
    const badRole = await runSvc(['members', 'add', 'x@example.com', '--role', 'admin'], env);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('Allowed choices are owner, developer, supervisor');
    const badEmail = await runSvc(['members', 'add', 'not-an-email', '--role', 'developer'], env);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toMatch(/^svc: email: .*\(invalid_request\)\n$/);
    const member = await runSvc(['members', 'add', 'ada@example.com', '--role', 'developer'], env);
    expect(member.stderr).toBe('svc: ada@example.com is already a member of acme (already_member)\n');
    const lastOwner = await runSvc(['--json', 'members', 'role', 'ada@example.com', 'supervisor'], env);
    expect(lastOwner.code).toBe(1);
    expect(JSON.parse(lastOwner.stdout).error.code).toBe('last_owner');
    const nobody = await runSvc(['members', 'remove', 'nobody@example.com'], env);
    expect(nobody).toMatchObject({ code: 1, stderr: 'svc: nobody@example.com is neither a member of acme nor invited\n' });
  });

  it('refuses a non-owner with 403 forbidden, and lets them leave', async () => {
    await runSvc(['members', 'add', 'dev@example.com', '--role', 'developer'], env);
    const dev = await accept('dev@example.com');
    const asDev = { ...env, SVC_TOKEN: dev };
    const invite = await runSvc(['members', 'add', 'friend@example.com', '--role', 'owner'], asDev);
    expect(invite.code).toBe(1);
    expect(invite.stderr).toBe('svc: only owners may invite members, change their roles and remove them; you are developer (forbidden)\n');
    const left = await runSvc(['members', 'remove', 'dev@example.com'], asDev);
    expect(left).toMatchObject({ code: 0, stdout: 'Removed dev@example.com from acme.\n' });
    expect((await runSvc(['members'], env)).stdout).not.toContain('dev@example.com');
  });
});
