import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (or `CHROMIUM_PATH`), headless and off the network but for what a test serves; playwright-core
 * drives it without downloading a browser of its own.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
