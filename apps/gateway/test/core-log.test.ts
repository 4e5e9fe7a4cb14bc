import { request } from '@svc/testkit';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';

let platform: TestPlatform | undefined;
afterEach(() => platform?.stop());

it("writes no code to core's log at any level: not a phone code the dev sender kept, nor a mailed user code", async () => {
  const lines: string[] = [];
  platform = await startPlatform({
    localMode: true,
    coreLog: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }),
  });
  const token = await createUserWithToken(platform, 'ada@example.com');
  await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } });
  await request(`${platform.url}/api/v1/acme/phone_verifications`, { token, json: { phone_number: '+56912345678' } });
  const device = await request(`${platform.url}/cli/device_authorizations`, { json: { email: 'dev@example.com' } });
  expect(device.body.email_sent).toBe(true);

  await expect.poll(() => lines.filter((line) => /dev sender: message kept|mail sent/.test(line)).length).toBe(2);
  const { messages } = (await request(`${platform.url}/dev/outbox.json`)).body;
  const code = /\b\d{6}\b/.exec(messages[0].body)![0];
  const logged = lines.join('');
  expect(logged).toContain('+56912345678'); // the delivery is logged...
  expect(logged).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`)); // ...without its code (digits of a timestamp aside)
  expect(logged).not.toContain(device.body.user_code);
  expect(logged).not.toContain(device.body.user_code.replace('-', ''));
});
