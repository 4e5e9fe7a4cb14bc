import { linkIn, tempDir } from '@svc/testkit';
import { expect, it } from 'vitest';
import { mailAndBrowser } from './mail-and-browser.ts';
import { createUserWithToken } from './platform.ts';
import { runSvc } from './run-svc.ts';
import { spawnSvc } from './spawn-svc.ts';

const world = mailAndBrowser();

it('svc login --email: the mailed link, opened in Chromium, signs in and approves; the CLI ends signed in', async () => {
  // Ada exists and owns a workspace; she signs in from a headless machine with her email.
  const { identity, workspaces } = world.platform.core.services;
  await createUserWithToken(world.platform, 'ada@example.com');
  const ada = await identity.findOrCreateUser('ada@example.com');
  await workspaces.create(ada.id, { slug: 'acme', name: 'Acme' });

  const env = { SVC_BASE_URL: world.platform.url, XDG_CONFIG_HOME: tempDir() };
  const login = spawnSvc(['login', '--email', 'ada@example.com'], env);
  const [, code] = await login.waitForOutput(/one-time code: ([A-Z]{4}-[A-Z]{4})\n.*\n/, { stream: 'stderr' });
  expect(login.output('stderr')).toContain('We mailed a sign-in link to ada@example.com');

  const mail = await world.smtp.mail(0);
  expect(mail.text).toContain(code);
  const page = await world.browser.newPage();
  await page.goto(linkIn(mail));
  await page.getByRole('button', { name: 'Continue as ada@example.com' }).click();
  await page.waitForURL(/\/device\?user_code=/);
  await expect.poll(() => page.locator('.code').textContent()).toBe(code);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('You can return to your terminal').waitFor();

  expect(await login.exited).toBe(0);
  expect(login.output('stdout')).toContain(`Signed in to ${world.platform.url} as ada@example.com`);
  const list = await runSvc(['workspaces'], env);
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(/^acme\s+Acme\s+owner/m);
});
