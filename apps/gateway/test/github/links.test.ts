import { request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { atOnce } from '../at-once.ts';
import { type EvalsApi, evalsWorkspace } from '../evals/setup.ts';

let platform: TestPlatform;
let acme: EvalsApi;
let globex: EvalsApi;
beforeAll(async () => {
  platform = await startPlatform({ evalConcurrency: 0 });
  [acme, globex] = await Promise.all([evalsWorkspace(platform, 'acme'), evalsWorkspace(platform, 'globex')]);
});
afterAll(() => platform.stop());

const link = (ws: EvalsApi, repository: string, token = ws.token) => ws.api('/github/links', { token, json: { repository } });
const unlink = (ws: EvalsApi, repository: string, token = ws.token) => ws.api(`/github/links/${repository}`, { token, method: 'DELETE' });
const links = async (ws: EvalsApi, token = ws.token) => {
  const listed = await ws.api('/github/links', { token });
  expect(listed.status).toBe(200);
  return listed.body.links as { repository: string; installed: boolean }[];
};

it('owners and developers link and unlink repositories; supervisors see the links and change nothing', async () => {
  const [developer, supervisor] = [await acme.member('developer'), await acme.member('supervisor')];
  expect((await link(acme, 'Acme/Support-Bot', developer)).body).toMatchObject({
    repository: 'Acme/Support-Bot',
    installed: false,
    created_by: 'developer@acme.example',
  });
  expect((await link(acme, 'acme/website')).status).toBe(201);
  const refused = await link(acme, 'acme/docs', supervisor);
  expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
  expect((await unlink(acme, 'acme/website', supervisor)).status).toBe(403);
  expect((await links(acme, supervisor)).map((l) => l.repository)).toEqual(['Acme/Support-Bot', 'acme/website']);
  expect((await unlink(acme, 'acme/website', developer)).status).toBe(204);
  expect((await links(acme)).map((l) => l.repository)).toEqual(['Acme/Support-Bot']);
});

it('links a repository to one workspace whatever its case; the refusal never names the other workspace', async () => {
  expect((await link(acme, 'Initech/Bot')).status).toBe(201);
  const elsewhere = await link(globex, 'initech/BOT');
  expect([elsewhere.status, elsewhere.body.error.code]).toEqual([409, 'repository_linked']);
  expect(elsewhere.body.error.message).not.toContain('acme');
  const again = await link(acme, 'INITECH/bot');
  expect([again.status, again.body.error.code]).toEqual([409, 'repository_linked']);
  expect(again.body.error.message).toContain('this workspace');
  // Unlinked by its workspace (whatever the case), it may be linked by another.
  const foreign = await unlink(globex, 'initech/bot');
  expect([foreign.status, foreign.body.error.code]).toEqual([404, 'link_not_found']);
  expect((await unlink(acme, 'initech/Bot')).status).toBe(204);
  expect((await link(globex, 'initech/bot')).status).toBe(201);
  expect((await links(globex)).map((l) => l.repository)).toEqual(['initech/bot']);
});

it('refuses what is no GitHub repository name with 400 invalid_repository', async () => {
  for (const repository of [
    'acme',
    'acme/',
    '/bot',
    'acme/bot/extra',
    '-acme/bot',
    'ac--me/bot',
    'acme/..',
    'acme/b ot',
    `${'a'.repeat(40)}/bot`,
  ]) {
    const answer = await link(acme, repository);
    expect([answer.status, answer.body.error.code, answer.body.error.field], repository).toEqual([400, 'invalid_repository', 'repository']);
  }
  const unlinked = await unlink(acme, 'ac--me/bot');
  expect([unlinked.status, unlinked.body.error.code]).toEqual([400, 'invalid_repository']);
  expect((await link(acme, 'a-b9/x_y.z-1')).status).toBe(201);
});

it('ten links of one repository at once from two workspaces: one is made, nine answer 409', async () => {
  const answers = await atOnce(platform.url, 10, (i) =>
    request(`${platform.url}/api/developer/v1/${i % 2 ? 'acme' : 'globex'}/github/links`, {
      token: (i % 2 ? acme : globex).token,
      json: { repository: i % 3 ? 'race/bot' : 'RACE/Bot' },
    }),
  );
  expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409 && a.body.error.code === 'repository_linked')).toHaveLength(9);
  const holders = [...(await links(acme)), ...(await links(globex))].filter((l) => l.repository.toLowerCase() === 'race/bot');
  expect(holders).toHaveLength(1);
});

it('shows whether the GitHub App is installed on each linked repository', async () => {
  expect((await link(globex, 'globex/shop')).status).toBe(201);
  const { installations } = platform.core.services.github;
  await installations.sync(41, ['Globex/Shop'], [], false);
  expect((await links(globex)).find((l) => l.repository === 'globex/shop')?.installed).toBe(true);
  await installations.sync(41, [], [], true);
  expect((await links(globex)).find((l) => l.repository === 'globex/shop')?.installed).toBe(false);
});
