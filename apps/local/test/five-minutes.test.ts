import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeTempDirs, request, runProcess, tempDir } from '@svc/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodesOf, readmeBlocks, repositoryRoot, shellScript } from './readme.ts';
import { freePorts, startLocal, svc } from './start-local.ts';

afterAll(removeTempDirs);

describe('the README\u2019s quick start and five minutes, as written, on ports and a data folder of one\u2019s own', () => {
  it('the seeded flag fails on live, a fix passes on preview, and the publish\u2019s live run marks the flag fixed', async () => {
    const dataDir = tempDir('svc data-'); // a space in it, as in many home folders
    const ports = await freePorts();
    const local = startLocal({ ...ports, SVC_DATA_DIR: dataDir });
    await local.ready;
    const baseUrl = `http://localhost:${ports.PORT}`;
    // A second shell at the repository's root, with the ports and data folder exported as Quick start says.
    const temp = tempDir();
    const shell = { ...ports, SVC_DATA_DIR: dataDir, HOME: process.env.HOME ?? temp, TMPDIR: temp, NO_COLOR: '1' };
    const bash = (script: string, env: Record<string, string> = {}) =>
      runProcess('bash', ['-c', script], { env: { ...shell, ...env }, cwd: repositoryRoot, timeoutMs: 180_000 });

    const [, tryIt] = readmeBlocks('Quick start', 'sh');
    const quickStart = await bash(shellScript(tryIt!));
    expect(exitCodesOf(quickStart.stdout), quickStart.stdout + quickStart.stderr).toEqual([0, 0, 0, 0]);
    expect(quickStart.stdout).toContain('"slug":"demo"'); // curl's JSON
    expect(quickStart.stdout).toMatch(/demo\s+Demo\s+owner/); // svc workspaces' table
    expect(quickStart.stdout).toContain('acme');

    // Five minutes: the flag and its failing case, the README's rule added as it says, then push, eval and publish.
    const [setup, publish] = readmeBlocks('Five minutes', 'sh');
    const [rule] = readmeBlocks('Five minutes', 'yaml');
    const addRule =
      'node -e \'const fs = require("fs"), f = "agents/support/agent.yaml", at = `    - when: "return|refund"\\n`; ' +
      'fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(at, process.env.RULE + at))\'';
    const run = await bash(shellScript(setup!, addRule, publish!), { RULE: rule! });
    const said = run.stdout + run.stderr;
    // export, alias, the copy, svc flags, svc eval --env live (fails), the rule, svc push, svc eval, svc publish.
    expect(exitCodesOf(run.stdout), said).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(run.stdout).toContain('"Your refund reaches your original payment method within 5 business days"');
    expect(run.stdout).toContain('deterministic');
    expect(run.stdout).toMatch(/deployed to preview/);
    expect(run.stdout).toContain(`${baseUrl}/w/demo/evals/run_`);
    // The copy is in a folder of the reader's own temp folder, none shared with other users.
    const [folder] = readdirSync(temp);
    expect(readdirSync(join(temp, folder!, 'demo'))).toContain('agents');

    const token = (await bash('cat "$SVC_DATA_DIR/dev-token"')).stdout.trim();
    const live = (await request(`${baseUrl}/api/developer/v1/demo/environments`, { token })).body.environments.find(
      (e: { name: string }) => e.name === 'live',
    );
    let fixed: { status: string; fixed_by_version: { number: number } }[] = [];
    for (let waited = 0; fixed.length === 0 && waited < 150; waited++) {
      fixed = (await request(`${baseUrl}/api/developer/v1/demo/flags?status=fixed`, { token })).body.flags;
      if (fixed.length === 0) await sleep(200);
    }
    expect(fixed).toMatchObject([{ status: 'fixed', fixed_by_version: { number: live.version.number } }]);
    const env = { SVC_TOKEN: token, SVC_BASE_URL: baseUrl };
    expect((await svc(['flags', '--json'], env, join(temp, folder!, 'demo'))).stdout).toContain('"flags": []');
  });
});
