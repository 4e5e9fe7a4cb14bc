import { request } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { expectFits, launchChromium, signIn, widths, windowOf } from './chromium.ts';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  const { identity, workspaces, store } = platform.core.services;
  const ada = await identity.findOrCreateUser('ada@example.com');
  const sam = await identity.findOrCreateUser('sam@example.com');
  await workspaces.create(ada.id, { slug: 'acme' });
  const acme = await store.workspaces.findBySlug('acme');
  await store.workspaces.addMember(acme!.id, sam.id, 'supervisor', new Date().toISOString());
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

const section = (page: Page) => page.getByRole('region', { name: 'GitHub' });

/** The rows of the GitHub table as a person reads them: repository and whether the app is installed. */
async function rows(page: Page): Promise<string[][]> {
  const cells = await section(page).locator('tbody tr').all();
  return Promise.all(
    cells.map(async (row) => [(await row.locator('td').nth(0).innerText()).trim(), (await row.locator('td').nth(1).innerText()).trim()]),
  );
}

it('an owner links a repository, sees whether the app is installed there, and unlinks it; a refusal says why', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme`);
  expect(await section(page).getByText('No repository is linked to acme.').count()).toBe(1);
  expect(await section(page).getByText('svc github connect').count()).toBe(1);

  const link = async (repository: string) => {
    await section(page).getByLabel('Repository (owner/name)').fill(repository);
    await section(page).getByRole('button', { name: 'Link repository' }).click();
  };
  await link('Acme/Support-Bot');
  await page.waitForURL(`${platform.url}/w/acme#github-repositories`);
  expect(await rows(page)).toEqual([['Acme/Support-Bot', 'not installed']]);
  expect(await section(page).getByRole('link', { name: 'Acme/Support-Bot' }).getAttribute('href')).toBe(
    'https://github.com/Acme/Support-Bot',
  );

  await platform.core.services.github.installations.sync(7, ['acme/support-bot'], [], false);
  await page.reload();
  expect(await rows(page)).toEqual([['Acme/Support-Bot', 'installed']]);

  // Linked already: the error page names the reason, and nothing changed.
  await link('acme/support-bot');
  expect(await page.locator('body').innerText()).toContain('linked to this workspace already');
  await page.goto(`${platform.url}/w/acme`);
  expect(await rows(page)).toEqual([['Acme/Support-Bot', 'installed']]);

  // A post without the session's CSRF token (another site's form) changes nothing.
  const forged = await page.request.post(`${platform.url}/w/acme/github/links/Acme/Support-Bot/remove`, { form: {}, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  await page.goto(`${platform.url}/w/acme`);
  expect(await rows(page)).toEqual([['Acme/Support-Bot', 'installed']]);

  await link('not a repository');
  expect(await page.locator('body').innerText()).toContain('expected a GitHub repository as owner/name');

  await page.goto(`${platform.url}/w/acme`);
  await section(page).getByRole('button', { name: 'Unlink Acme/Support-Bot' }).click();
  await page.waitForURL(`${platform.url}/w/acme#github-repositories`);
  expect(await rows(page)).toEqual([]);
  expect(await section(page).getByText('No repository is linked to acme.').count()).toBe(1);
  await window.close();
});

it('a supervisor reads the links without the forms', async () => {
  const { identity } = platform.core.services;
  const { token } = await identity.issueToken((await identity.findOrCreateUser('ada@example.com')).id, 'svc CLI');
  const linked = await request(`${platform.url}/api/developer/v1/acme/github/links`, { token, json: { repository: 'acme/shop' } });
  expect(linked.status).toBe(201);
  const window = await windowOf(browser);
  await signIn(window, platform, 'sam@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme`);
  expect(await rows(page)).toEqual([['acme/shop', 'not installed']]);
  expect(await section(page).getByRole('button').count()).toBe(0);
  expect(await section(page).getByText('Owners and developers link and unlink repositories.').count()).toBe(1);
  await window.close();
});

it.each(widths)(
  'the workspace page with its GitHub section fits a window %i px wide',
  async (width) => {
    const window = await windowOf(browser, width);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    await page.goto(`${platform.url}/w/acme`);
    await section(page)
      .getByLabel('Repository (owner/name)')
      .fill(`a-rather-long-organisation-name-for-svc/an-equally-long-repository-name-${width}`);
    await section(page).getByRole('button', { name: 'Link repository' }).click();
    await page.waitForURL(/#github-repositories$/);
    expect((await rows(page)).length).toBeGreaterThan(0);
    await expectFits(page, 'workspace-github');
    await window.close();
  },
  60_000,
);
