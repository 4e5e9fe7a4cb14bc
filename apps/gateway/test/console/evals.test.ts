import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { expectFits, launchChromium, signIn, widths, windowOf } from './chromium.ts';

const agent = (price: string) => ({
  'svc.yaml': 'workspace: acme\n',
  'agents/sales/agent.yaml': `name: Sales\nmodel: scripted\nscripted:\n  rules:\n    - when: "price"\n      reply: "Plans start at ${price}."\n  fallback: Hello from sales.\n`,
  'agents/sales/instructions.md': 'Sell.',
});
const note = 'Say that plans start at "12 USD".';

let platform: TestPlatform;
let browser: Browser;
let token: string;
let chatId: string;
let flagId: string;

const api = (path: string, init: Parameters<typeof request>[1] = {}) =>
  request(`${platform.url}/api/developer/v1/acme${path}`, { token, ...init });

/** The run, once the runner has finished it. */
async function finished(runId: string) {
  for (;;) {
    const run = await api(`/evals/runs/${runId}`);
    if (run.body.finished) return run.body;
    await sleep(25);
  }
}

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } })).status).toBe(201);
  expect((await api('/deployments', { json: { environment: 'live', files: agent('10 USD') } })).status).toBe(201);
  chatId = (await request(`${platform.url}/api/v1/acme/chats`, { token, json: { agent: 'sales' } })).body.chat_id;
  const sent = await request(`${platform.url}/api/v1/acme/chats/${chatId}/messages`, { token, json: { text: 'what is the price?' } });
  flagId = (await api('/flags', { json: { message_id: sent.body.message_id, note } })).body.id;
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

const cases = async () => (await api('/evals/cases?agent=sales')).body.cases as { id: string; turns: string[]; expected: string }[];
const caseItem = (page: Page, text: string) => page.locator('.eval-case', { hasText: text });

it("an agent's eval cases page lists a flag's case linking to its chat, and adds, edits and deletes a case by hand", async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme`);
  await page.getByRole('region', { name: 'Agents' }).getByRole('link', { name: 'Eval cases' }).click();
  await page.getByRole('heading', { name: 'Eval cases of sales' }).waitFor();

  const flagged = caseItem(page, note);
  expect(await flagged.getByRole('link', { name: 'From a flag' }).getAttribute('href')).toMatch(
    new RegExp(`^/w/acme/chats/${chatId}#msg_`),
  );
  expect(await flagged.locator('.turns li').allTextContents()).toEqual(['what is the price?']);
  expect(await flagged.getByRole('button').count()).toBe(0);
  expect(await flagged.textContent()).toContain('Change it through its flag');

  const add = page.getByRole('region', { name: 'Add a case' });
  await add.getByLabel('Visitor messages, one per line').fill('hi\n\nwhat is the price?\n');
  await add.getByLabel('Expected outcome').fill('Says "10 USD".');
  await add.getByRole('button', { name: 'Add case' }).click();
  const added = caseItem(page, 'Says "10 USD".');
  await added.waitFor();
  expect(await added.locator('.meta').textContent()).toContain('Added by ada@example.com');
  expect(await added.locator('.turns li').allTextContents()).toEqual(['hi', 'what is the price?']);
  expect((await cases()).map((c) => [c.turns, c.expected])).toEqual([
    [['what is the price?'], note],
    [['hi', 'what is the price?'], 'Says "10 USD".'],
  ]);

  await added.getByText('Edit').click();
  await added.getByLabel('Visitor messages, one per line').fill('what is the price?');
  await added.getByLabel('Expected outcome').fill('Says "11 USD".');
  await added.getByRole('button', { name: 'Save case' }).click();
  await caseItem(page, 'Says "11 USD".').waitFor();
  expect((await cases())[1]).toMatchObject({ turns: ['what is the price?'], expected: 'Says "11 USD".' });

  await caseItem(page, 'Says "11 USD".').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { name: 'Eval cases of sales' }).waitFor();
  expect(await page.locator('.eval-case').count()).toBe(1);
  expect(await cases()).toHaveLength(1);

  // A bad case answers as the console's error page, naming what is wrong, and adds nothing.
  await add.getByLabel('Visitor messages, one per line').fill('x'.repeat(4001));
  await add.getByLabel('Expected outcome').fill('Says hi.');
  await add.getByRole('button', { name: 'Add case' }).click();
  expect(await page.textContent('main')).toContain('turns');
  expect(await cases()).toHaveLength(1);
  await window.close();
});

it('the runs page lists runs newest first; a run page puts regressions first, and a Pass or Fail override shows who and moves counts and flags', async () => {
  const hello = (await api('/evals/cases', { json: { agent: 'sales', turns: ['hi'], expected: 'Says "hello".' } })).body.id;
  // Live v2 answers as the note asks: the publish's run passes the flag's case and fixes the flag.
  expect((await api('/deployments', { json: { environment: 'preview', files: agent('12 USD') } })).status).toBe(201);
  const published = await api('/publish', { json: {} });
  const live = await finished(published.body.eval_run_id);
  expect(live).toMatchObject({ passed: 2, failed: 0 });
  expect((await api(`/flags/${flagId}`)).body.status).toBe('fixed');
  // Preview v3 breaks the price again: a regression against live.
  expect((await api('/deployments', { json: { environment: 'preview', files: agent('14 USD') } })).status).toBe(201);
  const preview = await finished((await api('/evals/runs', { json: {} })).body.id);
  expect(preview).toMatchObject({ regressions: 1, passed: 1 });

  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme`);
  await page.getByRole('navigation', { name: 'svc' }).getByRole('link', { name: 'Evals' }).click();
  await page.getByRole('heading', { name: 'Eval runs' }).waitFor();
  const rows = page.locator('table.runs tbody tr');
  expect(await rows.locator('td:first-child code').allTextContents()).toEqual([preview.id, live.id]);
  expect(await rows.first().locator('.run-verdict').textContent()).toBe('Failed');
  expect(await rows.first().textContent()).toContain('2/2 done');
  expect(await rows.nth(1).locator('.run-verdict').textContent()).toBe('Passed');

  await rows.first().getByRole('link').click();
  await page.getByRole('heading', { name: /Eval run on preview, v3/ }).waitFor();
  const results = page.locator('.result');
  const flagCase = (await api(`/flags/${flagId}`)).body.eval_case_id;
  expect(await Promise.all((await results.all()).map((item) => item.getAttribute('id')))).toEqual([flagCase, hello]);
  const regression = results.first();
  expect(await regression.locator('.verdict').allTextContents()).toEqual(['Fail', 'Regression']);
  expect(await regression.textContent()).toContain('0/1 replays passed');
  expect(await regression.locator('.reasoning').textContent()).toContain('12 USD');
  expect(await page.locator('table.counts').textContent()).toContain('Live baseline');
  await regression.getByRole('link', { name: 'Replay chat' }).click();
  await page.getByRole('heading', { name: 'Chat with sales' }).waitFor();
  expect(await page.locator('.message.agent .text').allTextContents()).toEqual(['Plans start at 14 USD.']);
  await page.goBack();

  await results.first().getByRole('button', { name: 'Pass' }).click();
  await page.waitForURL(new RegExp(`/w/acme/evals/${preview.id}#${flagCase}`));
  const overridden = page.locator(`[id="${flagCase}"]`);
  expect(await overridden.locator('.override').textContent()).toMatch(/^Set to pass by ada@example.com · .* UTC \(graded fail\)/);
  expect((await api(`/evals/runs/${preview.id}`)).body).toMatchObject({ passed: 2, failed: 0, regressions: 0 });
  await overridden.getByRole('button', { name: "Give the grader's verdict back" }).click();
  await page.locator(`[id="${flagCase}"] .verdict.regression`).waitFor();
  expect((await api(`/evals/runs/${preview.id}`)).body).toMatchObject({ failed: 1, regressions: 1 });

  // On the live run, a person's fail reopens the flag the run fixed.
  await page.goto(`${platform.url}/w/acme/evals/${live.id}`);
  await page.locator(`[id="${flagCase}"]`).getByRole('button', { name: 'Fail' }).click();
  await page.locator(`[id="${flagCase}"] .verdict.fail`).waitFor();
  expect((await api(`/flags/${flagId}`)).body.status).toBe('open');
  await page.locator(`[id="${flagCase}"]`).getByRole('button', { name: "Give the grader's verdict back" }).click();
  await page.locator(`[id="${flagCase}"] .verdict.pass`).waitFor();
  await window.close();
});

it("a fixed flag on its chat's page links to its case and to the live run that fixed it", async () => {
  const flag = (await api(`/flags/${flagId}`)).body;
  expect(flag.status).toBe('fixed');
  const { runs } = (await api('/evals/runs?environment=live')).body;
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/chats/${chatId}`);
  const region = page.getByRole('region', { name: 'Flag', exact: true });
  expect(await region.getByRole('link', { name: 'Eval case' }).getAttribute('href')).toBe(
    `/w/acme/agents/sales/evals#${flag.eval_case_id}`,
  );
  await region.getByRole('link', { name: 'The live run that fixed it' }).click();
  await page.waitForURL(new RegExp(`/w/acme/evals/${runs[0].id}$`));
  expect(await page.locator(`[id="${flag.eval_case_id}"] .verdict`).first().textContent()).toBe('Pass');
  await window.close();
});

it.each(widths)(
  'the eval pages fit a window %i px wide, a long unbroken message and its replay included',
  async (width) => {
    const long = `https://shop.example.com/orders/${'A'.repeat(200)}`;
    expect((await api('/evals/cases', { json: { agent: 'sales', turns: [long], expected: `Says "${long}".` } })).status).toBe(201);
    await finished((await api('/evals/runs', { json: {} })).body.id);
    const window = await windowOf(browser, width);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    const { runs } = (await api('/evals/runs')).body;
    for (const [path, name] of [
      ['/w/acme/agents/sales/evals', 'eval cases'],
      ['/w/acme/evals', 'eval runs'],
      [`/w/acme/evals/${runs[0].id}`, 'eval run'],
    ] as const) {
      await page.goto(`${platform.url}${path}`);
      await expectFits(page, name);
    }
    await window.close();
  },
  60_000,
);

it('the runs page measures each grader against people: reviewed, agreement with its interval, each way they disagreed, at every width', async () => {
  const [preview] = (await api('/evals/runs?environment=preview')).body.runs;
  const { results } = (await api(`/evals/runs/${preview.id}`)).body as { results: { case_id: string; graded: string }[] };
  // A person fails a case the grader passed and one it failed: 1 of 2 agree, 50 %, Wilson 9–91 %.
  for (const graded of ['pass', 'fail']) {
    const result = results.find((r) => r.graded === graded)!;
    const path = `/evals/runs/${preview.id}/results/${result.case_id}/override`;
    expect((await api(path, { method: 'PUT', json: { verdict: 'fail' } })).status).toBe(200);
  }
  for (const width of widths) {
    const window = await windowOf(browser, width);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    await page.goto(`${platform.url}/w/acme/evals`);
    const graders = page.getByRole('region', { name: 'Graders against people' });
    const row = graders.locator('table.graders tbody tr');
    expect(await row.count()).toBe(1);
    const cells = (await row.locator('td').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(cells).toEqual(['deterministic', '2', '50 % (9–91 %)', '1', '0']);
    // On a phone each row is a block of labelled lines, its headers out of the way.
    expect(await graders.locator('thead').isVisible()).toBe(width === 1280);
    const labelled = await row.locator('td[data-label]').all();
    expect(await Promise.all(labelled.map((td) => td.getAttribute('data-label')))).toEqual([
      'Reviewed',
      'Agreement (95 % CI)',
      'Passed, person failed',
      'Failed, person passed',
    ]);
    expect(await graders.textContent()).toContain('in the last 90 days');
    await expectFits(page, 'eval-runs-graders');
    await window.close();
  }
});
