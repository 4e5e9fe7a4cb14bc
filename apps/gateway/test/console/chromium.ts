import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestPlatform } from '../platform.ts';

/** A phone's width and a laptop's. */
export const widths = [390, 1280] as const;

export { launchChromium } from '@svc/testkit';

/** A browser window of the given width with JavaScript off: the console must work without it. */
export function windowOf(browser: Browser, width: number = 1280): Promise<BrowserContext> {
  return browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
}

/** Signs the window in as `email`, with a console session core created as a mailed link's redemption does. */
export async function signIn(window: BrowserContext, platform: TestPlatform, email: string): Promise<void> {
  const { identity, sessions } = platform.core.services;
  const user = await identity.findOrCreateUser(email);
  const { token } = await sessions.create(user.id);
  await window.addCookies([{ name: 'svc_session', value: token, url: platform.url }]);
}

const pngWidth = (png: Buffer) => png.readUInt32BE(16);

/**
 * The page as shown fits its window's width: nothing wider than the viewport, so nothing to scroll sideways. The
 * full-page screenshot, as wide as the content, says the same; it stays in memory unless SCREENSHOT_DIR names a
 * folder to look at them in.
 */
export async function expectFits(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const [scrollWidth, clientWidth] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
  expect(scrollWidth, `${name} at ${width} px is ${scrollWidth} px wide`).toBeLessThanOrEqual(clientWidth);
  // No table header or badge is broken mid-word: each shown one lays out on a single line.
  const broken = await page.evaluate<string[]>(`[...document.querySelectorAll('th, .badge, .run-verdict, .verdict, .strip-end')]
    .filter((el) => el.getClientRects().length > 0)
    .filter((el) => {
      const style = getComputedStyle(el);
      const line = style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.3 : parseFloat(style.lineHeight);
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().height > line * 1.5;
    })
    .map((el) => el.textContent.trim())`);
  expect(broken, `${name} at ${width} px: headers and badges on more than one line`).toEqual([]);
  const screenshot = await page.screenshot({ fullPage: true });
  expect(pngWidth(screenshot), `${name} at ${width} px: screenshot width`).toBe(width);
  const folder = process.env.SCREENSHOT_DIR;
  if (folder) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${name.replace(/\W+/g, '-')}-${width}.png`), screenshot);
  }
}
