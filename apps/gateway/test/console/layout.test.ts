import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { launchChromium, signIn, windowOf } from './chromium.ts';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  const { identity, workspaces, store } = platform.core.services;
  const ada = await identity.findOrCreateUser('ada@example.com');
  const bob = await identity.findOrCreateUser('bob@example.com');
  await workspaces.create(ada.id, { slug: 'acme', name: 'Acme Support' });
  await workspaces.create(bob.id, { slug: 'globex' });
  await workspaces.create(bob.id, { slug: 'initech', name: 'Initech' });
  const globex = await store.workspaces.findBySlug('globex');
  await store.workspaces.addMember(globex!.id, ada.id, 'supervisor', new Date().toISOString());
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

it('every page header shows the signed-in person and a switcher of each workspace they belong to, with their role', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  const header = page.getByRole('navigation', { name: 'svc' });
  for (const path of ['/', '/tokens', '/device']) {
    await page.goto(`${platform.url}${path}`);
    expect(await header.textContent(), path).toContain('ada@example.com');
    expect(await header.getByRole('button', { name: 'Sign out' }).count(), path).toBe(1);
    expect(await header.locator('summary').textContent(), path).toBe('Workspaces');
  }

  await header.locator('summary').click();
  const entries = header.getByRole('listitem');
  const shown = [];
  for (const entry of await entries.all()) {
    shown.push({
      href: await entry.getByRole('link').getAttribute('href'),
      name: await entry.locator('span').first().textContent(),
      role: await entry.locator('.role').textContent(),
    });
  }
  expect(shown).toEqual([
    { href: '/w/acme', name: 'Acme Support', role: 'owner' },
    { href: '/w/globex', name: 'globex', role: 'supervisor' },
  ]);
  await header.getByRole('link', { name: /globex/ }).click();
  await page.waitForURL(`${platform.url}/w/globex`);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('globex');
  expect(await page.locator('dd').nth(1).textContent()).toBe('supervisor');
  expect(await header.locator('summary').textContent()).toBe('globex');
  expect(await header.locator('a[aria-current="page"]').getAttribute('href')).toBe('/w/globex');
  await window.close();
});

it('a workspace the person does not belong to answers as one that does not exist', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  const theirs = await page.goto(`${platform.url}/w/initech`);
  const theirsText = await page.locator('main').textContent();
  const none = await page.goto(`${platform.url}/w/no-such-workspace`);
  expect([theirs?.status(), none?.status()]).toEqual([404, 404]);
  expect(theirsText).toContain('no workspace "initech" among yours');
  expect(await page.locator('main').textContent()).toContain('no workspace "no-such-workspace" among yours');
  await window.close();
});

it('a person without workspaces gets no switcher, and the home page says how to create one', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'cy@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/`);
  expect(await page.locator('details.switcher').count()).toBe(0);
  expect(await page.locator('main').textContent()).toContain('svc workspaces create <slug>');
  await window.close();
});
