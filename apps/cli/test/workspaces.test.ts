import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

describe('svc workspaces', () => {
  it('says there are none yet, then creates one and lists it as a table', async () => {
    const empty = await runSvc(['workspaces'], env);
    expect(empty).toMatchObject({ code: 0 });
    expect(empty.stdout).toContain('No workspaces yet');

    const created = await runSvc(['workspaces', 'create', 'acme', '--name', 'Acme Inc'], env);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created workspace acme (Acme Inc)');

    const list = await runSvc(['workspaces'], env);
    const [header, row] = list.stdout.trim().split('\n');
    expect(header).toMatch(/^SLUG\s+NAME\s+ROLE\s+CREATED$/);
    expect(row).toMatch(/^acme\s+Acme Inc\s+owner\s+\d{4}-\d{2}-\d{2}$/);
  });

  it('prints JSON with --json', async () => {
    await runSvc(['workspaces', 'create', 'json-one'], env);
    const list = await runSvc(['workspaces', '--json'], env);
    expect(list.code).toBe(0);
    const parsed = JSON.parse(list.stdout);
    expect(parsed.workspaces.map((w: { slug: string }) => w.slug)).toContain('json-one');
    const created = await runSvc(['--json', 'workspaces', 'create', 'json-two'], env);
    expect(JSON.parse(created.stdout)).toMatchObject({ slug: 'json-two', role: 'owner', name: null });
  });

  it('fails with one clear line and exit 1 on a taken or invalid slug', async () => {
    await runSvc(['workspaces', 'create', 'dupe'], env);
    const taken = await runSvc(['workspaces', 'create', 'dupe'], env);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe('svc: the workspace slug "dupe" is taken (slug_taken)\n');
    const invalid = await runSvc(['workspaces', 'create', 'No'], env);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^svc: slug: .*\(invalid_request\)\n$/);
  });

  it('exits 2 on a usage error', async () => {
    const missing = await runSvc(['workspaces', 'create'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'slug'");
    expect((await runSvc(['frobnicate'], env)).code).toBe(2);
  });

  it('says when the server cannot be reached, and how to name another one', async () => {
    const res = await runSvc(['workspaces'], { ...env, SVC_BASE_URL: 'http://127.0.0.1:9' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      'svc: cannot reach http://127.0.0.1:9; is the server running? Another server: --base-url <url> or SVC_BASE_URL\n',
    );
  });
});
