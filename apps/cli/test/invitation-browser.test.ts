import { tempDir } from '@svc/testkit';
import { expect, it } from 'vitest';
import { mailAndBrowser } from './mail-and-browser.ts';
import { createUserWithToken } from './platform.ts';
import { runSvc } from './run-svc.ts';

const world = mailAndBrowser();

it('svc members add: the mailed invitation, opened in Chromium, signs a new person in and joins on Accept', async () => {
  const token = await createUserWithToken(world.platform, 'ada@example.com');
  const env = { SVC_BASE_URL: world.platform.url, SVC_TOKEN: token, SVC_WORKSPACE: 'acme', XDG_CONFIG_HOME: tempDir() };
  expect((await runSvc(['workspaces', 'create', 'acme'], env)).code).toBe(0);
  expect((await runSvc(['members', 'add', 'sue@example.com', '--role', 'supervisor'], env)).code).toBe(0);

  const mail = await world.smtp.mail(0);
  expect(mail).toMatchObject({ to: 'sue@example.com', subject: 'ada@example.com invited you to the svc workspace acme' });
  const link = /https?:\/\/\S+\/invitations\/[\w-]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  expect(mail.html).toContain(link);

  const page = await world.browser.newPage();
  await page.goto(link!);
  await page.getByRole('button', { name: 'Continue as sue@example.com' }).click();
  await page.getByRole('heading', { name: 'Join acme?' }).waitFor();
  await expect.poll(() => page.getByText('ada@example.com invited sue@example.com').count()).toBe(1);
  // Signed in and on the Accept page, but not a member until the click.
  expect((await runSvc(['members'], env)).stdout).not.toMatch(/^sue@example\.com\s+supervisor\s+member/m);

  await page.getByRole('button', { name: 'Accept' }).click();
  await page.waitForURL(/\/w\/acme\/members$/);
  await page.getByRole('heading', { name: 'Members of acme' }).waitFor();
  expect(await page.locator('tbody tr').allTextContents()).toEqual([
    expect.stringMatching(/ada@example\.com\s*owner/),
    expect.stringMatching(/sue@example\.com\s*supervisor[\s\S]*Leave/),
  ]);
  expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
  expect((await runSvc(['members'], env)).stdout).toMatch(/^sue@example\.com\s+supervisor\s+member since/m);
  await page.close();
});

it("an owner's members page has the forms: invite, change a role, remove", async () => {
  const context = await world.browser.newContext();
  const page = await context.newPage();
  // Ada signs in to the console by her own mailed sign-in link.
  await page.goto(`${world.platform.url}/w/acme/members`);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByRole('button', { name: 'Mail me a link' }).click();
  const signIn = await world.smtp.mail(1);
  await page.goto(/https?:\/\/\S+\/auth\/link\/[\w-]+/.exec(signIn.text)![0]);
  await page.getByRole('button', { name: 'Continue as ada@example.com' }).click();
  await page.getByRole('heading', { name: 'Members of acme' }).waitFor();

  await page.getByLabel('Role of sue@example.com').selectOption('developer');
  await page
    .getByRole('row', { name: /sue@example\.com/ })
    .getByRole('button', { name: 'Change' })
    .click();
  await page.getByRole('heading', { name: 'Members of acme' }).waitFor();
  await expect.poll(() => page.getByLabel('Role of sue@example.com').inputValue()).toBe('developer');

  await page.getByLabel('Email', { exact: true }).fill('tom@example.com');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('heading', { name: 'Pending invitations' }).waitFor();
  expect((await world.smtp.mail(2)).to).toBe('tom@example.com');

  await page.getByRole('button', { name: 'Remove sue@example.com' }).click();
  await page.getByRole('heading', { name: 'Members of acme' }).waitFor();
  expect(await page.getByText('sue@example.com').count()).toBe(0);
  await context.close();
});
