import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts, startLocal, svc } from './start-local.ts';

afterAll(removeTempDirs);

const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));

/** The rule a newcomer adds to the scripted demo agent, as the seeded flag's note asks. */
const refundRule = `    - when: "how long.*refund"
      reply: "Your refund reaches your original payment method within 5 business days of the return arriving."
`;

describe('the README\u2019s five minutes, through the real processes', () => {
  it('the seeded flag fails on live, a fix passes on preview, and the publish\u2019s live run marks the flag fixed', async () => {
    const dataDir = tempDir();
    const ports = await freePorts();
    const local = startLocal({ ...ports, SVC_DATA_DIR: dataDir });
    await local.ready;
    const baseUrl = `http://localhost:${ports.PORT}`;
    const env = { SVC_TOKEN: readFileSync(join(dataDir, 'dev-token'), 'utf8').trim(), SVC_BASE_URL: baseUrl };
    const repo = tempDir();
    cpSync(demo, repo, { recursive: true });

    const flags = await svc(['flags'], env, repo);
    expect(flags.code).toBe(0);
    expect(flags.stdout).toContain('"Your refund reaches your original payment method within 5 business days"');

    const onLive = await svc(['eval', '--env', 'live'], env, repo);
    expect(onLive.code).toBe(1);
    expect(onLive.stdout).toMatch(/fail/i);
    expect(onLive.stdout).toContain('deterministic');

    const manifest = join(repo, 'agents/support/agent.yaml');
    const yaml = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, yaml.replace('    - when: "return|refund"\n', `${refundRule}    - when: "return|refund"\n`));
    const push = await svc(['push'], env, repo);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toMatch(/deployed to preview/);

    const onPreview = await svc(['eval'], env, repo);
    expect(onPreview.code, onPreview.stdout + onPreview.stderr).toBe(0);

    const publish = await svc(['publish'], env, repo);
    expect(publish.code, publish.stderr).toBe(0);
    expect(publish.stdout).toContain(`${baseUrl}/w/demo/evals/run_`);

    const token = env.SVC_TOKEN;
    const live = (await request(`${baseUrl}/api/developer/v1/demo/environments`, { token })).body.environments.find(
      (e: { name: string }) => e.name === 'live',
    );
    let fixed: { status: string; fixed_by_version: { number: number } }[] = [];
    for (let waited = 0; fixed.length === 0 && waited < 150; waited++) {
      fixed = (await request(`${baseUrl}/api/developer/v1/demo/flags?status=fixed`, { token })).body.flags;
      if (fixed.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(fixed).toMatchObject([{ status: 'fixed', fixed_by_version: { number: live.version.number } }]);
    expect((await svc(['flags', '--json'], env, repo)).stdout).toContain('"flags": []');
  });
});
