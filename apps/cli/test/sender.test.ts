import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir(), SVC_WORKSPACE: 'acme' };
  await runSvc(['workspaces', 'create', 'acme'], env);
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

describe('svc sender', () => {
  it('sets a WhatsApp Cloud sender with the token read from stdin, and never prints it', async () => {
    const set = await runSvc(
      ['sender', 'set', 'whatsapp_cloud', '--phone-number-id', '1234567890', '--access-token', '-', '--template', 'otp_code'],
      env,
      'EAAG-from-stdin\n',
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Sender of acme: whatsapp_cloud');
    expect(set.stdout).toContain('phone_number_id: 1234567890');
    expect(set.stdout).toContain('access_token: (set, hidden)');
    expect(set.stdout).not.toContain('EAAG-from-stdin');

    const show = await runSvc(['sender', 'show', '--json'], env);
    expect(JSON.parse(show.stdout)).toMatchObject({
      kind: 'whatsapp_cloud',
      secrets_set: ['access_token'],
      config: { template: 'otp_code', language: 'en_US' },
    });
  });

  it('keeps the webhook verify token hidden, as the other secrets, whether set or shown', async () => {
    const set = await runSvc(
      [
        'sender',
        'set',
        'whatsapp_cloud',
        '--phone-number-id',
        '1234567890',
        '--access-token',
        'EAAG-token',
        '--template',
        'otp_code',
        '--webhook-verify-token',
        '-',
      ],
      env,
      'verify-me-0xBEEF\n',
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('webhook_verify_token: (set, hidden)');
    const show = await runSvc(['sender', 'show'], env);
    const json = await runSvc(['sender', 'show', '--json'], env);
    for (const output of [set.stdout, show.stdout, json.stdout]) expect(output).not.toContain('verify-me-0xBEEF');
    expect(show.stdout).toContain('webhook_verify_token: (set, hidden)');
    expect(JSON.parse(json.stdout).secrets_set).toEqual(['access_token', 'webhook_verify_token']);
  });

  it('sets a Twilio sender for the workspace given by --workspace', async () => {
    await runSvc(['workspaces', 'create', 'beta'], env);
    const set = await runSvc(
      [
        'sender',
        '--workspace',
        'beta',
        'set',
        'twilio_whatsapp',
        '--account-sid',
        `AC${'1'.repeat(32)}`,
        '--auth-token',
        'tw-secret',
        '--from',
        'whatsapp:+14155238886',
        '--content-sid',
        `HX${'2'.repeat(32)}`,
      ],
      env,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('status webhook URL: ');
    expect(set.stdout).toContain('/webhooks/twilio/beta');
  });

  it('explains a rejected config in one line, and a missing workspace as a usage error', async () => {
    const bad = await runSvc(
      [
        'sender',
        'set',
        'twilio_whatsapp',
        '--account-sid',
        'nope',
        '--auth-token',
        'x',
        '--from',
        'whatsapp:+14155238886',
        '--content-sid',
        `HX${'2'.repeat(32)}`,
      ],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^svc: account_sid: expected an Account SID \(AC\.\.\.\) \(invalid_request\)\n$/);
    const { SVC_WORKSPACE: _, ...noWorkspace } = env;
    const missing = await runSvc(['sender', 'show'], noWorkspace);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--workspace');
  });
});
