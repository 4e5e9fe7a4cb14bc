import { launchChromium, removeTempDirs, type SmtpCapture, startSmtpCapture } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startPlatform, type TestPlatform } from './platform.ts';

export interface MailAndBrowser {
  platform: TestPlatform;
  /** Every mail the platform sends, caught by an SMTP server on 127.0.0.1. */
  smtp: SmtpCapture;
  browser: Browser;
}

/** For this test file: a platform whose mail a real SMTP server catches, and headless Chromium to open its links. */
export function mailAndBrowser(): MailAndBrowser {
  const world = {} as MailAndBrowser;
  beforeAll(async () => {
    world.smtp = await startSmtpCapture();
    world.platform = await startPlatform({ mail: { smtpUrl: world.smtp.url } });
    world.browser = await launchChromium();
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.platform.stop();
    await world.smtp.close();
    removeTempDirs();
  });
  return world;
}
