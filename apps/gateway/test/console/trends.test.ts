import type { EvalRunDetailView, EvalRunView } from '@svc/domain';
import { request } from '@svc/testkit';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pointAt } from '../../src/routes/console/components/pass-rate-trend.tsx';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { expectFits, launchChromium, signIn, widths, windowOf } from './chromium.ts';

// A scripted agent: "hours" is answered, anything else gets the fallback. The deterministic grader passes a case
// whose quoted phrase is in the reply.
const agentFiles = (hours: string) => ({
  'svc.yaml': 'workspace: acme\n',
  'agents/support/agent.yaml':
    'name: Support\nmodel: scripted\nscripted:\n' +
    `  rules:\n    - when: "hours"\n      reply: "${hours}"\n  fallback: "Hello, how can I help?"\n`,
  'agents/support/instructions.md': 'Help.',
});

/** The little of a DOM element these checks read (the tests are compiled without the DOM's types). */
interface Node {
  getAttribute(name: string): string | null;
  textContent: string | null;
  getBoundingClientRect(): { width: number; height: number };
  querySelector(selector: string): Node;
}
/** What `fn`, run in the page on the elements matched, answers about them. */
const ofAll = async <T>(locator: Locator, fn: (nodes: Node[]) => T): Promise<T> => (await locator.evaluateAll(fn as never)) as T;

let platform: TestPlatform;
let browser: Browser;
let token: string;
const cases: Record<string, string> = {};
/** A case added after preview's first run: preview's second run has 4 cases, live's runs 3. */
let added: string;
let previewRun: EvalRunDetailView;
const api = (path: string, init: { json?: unknown; method?: string } = {}) =>
  request(`${platform.url}/api/developer/v1/acme${path}`, { token, ...init });

async function finishedRun(environment: string): Promise<EvalRunDetailView> {
  const started = await api('/evals/runs', { json: { environment } });
  expect(started.status).toBe(202);
  await vi.waitFor(async () => expect((await api(`/evals/runs/${started.body.id}`)).body.finished).toBe(true), { timeout: 30_000 });
  return (await api(`/evals/runs/${started.body.id}`)).body;
}

const deploy = async (environment: string, hours: string) =>
  expect((await api('/deployments', { json: { environment, files: agentFiles(hours) } })).status).toBe(201);

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } })).status).toBe(201);
  for (const [name, turn, expected] of [
    ['greeting', 'hi', 'Says "how can I help".'],
    ['hours', 'what are your hours?', 'Says "9 to 5".'],
    ['weekend', 'hours on weekends?', 'Says "closed on Sundays".'],
  ] as const) {
    const created = await api('/evals/cases', { json: { agent: 'support', turns: [turn], expected } });
    cases[name] = created.body.id;
  }
  // Live: v1 passes 1 case of 3, then v2 passes 2; a person fails the greeting of v2's second run by hand (a flip
  // on the same version: flaky). Preview: v3 passes all 3.
  await deploy('live', 'We open at 10.');
  await finishedRun('live');
  await deploy('live', 'We open 9 to 5.');
  await finishedRun('live');
  const overridden = await finishedRun('live');
  const override = await api(`/evals/runs/${overridden.id}/results/${cases.greeting}/override`, {
    method: 'PUT',
    json: { verdict: 'fail' },
  });
  expect(override.status).toBe(200);
  await deploy('preview', 'We open 9 to 5, closed on Sundays.');
  await finishedRun('preview');
  const abroad = { agent: 'support', turns: ['Do you ship abroad?\nI live in Chile.'], expected: 'Says "we ship worldwide".' };
  added = (await api('/evals/cases', { json: abroad })).body.id;
  previewRun = await finishedRun('preview');
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

/** The finished runs of an environment as the API lists them, oldest first. */
async function finishedRuns(environment: string): Promise<EvalRunView[]> {
  const { runs } = (await api(`/evals/runs?environment=${environment}`)).body as { runs: EvalRunView[] };
  return runs.filter((run) => run.status === 'finished').reverse();
}

describe('trends in the console', () => {
  it("the runs page draws each environment's pass rate, a point per finished run, against live's latest", async () => {
    const window = await windowOf(browser);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    await page.goto(`${platform.url}/w/acme/evals`);
    for (const environment of ['live', 'preview']) {
      const runs = await finishedRuns(environment);
      const figure = page.locator('figure.trend').filter({ has: page.locator('figcaption', { hasText: environment }) });
      const points = await ofAll(figure.locator('circle.point'), (circles) =>
        circles.map((c) => ({ x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')), title: c.textContent ?? '' })),
      );
      expect(points).toEqual(
        runs.map((run, i) => ({
          ...pointAt(i, runs.length, run.passed / run.cases),
          title:
            `v${run.version.number}, ${run.cases} cases${i > 0 && run.cases > runs[i - 1]!.cases ? ` (${run.cases - runs[i - 1]!.cases} more than the run before)` : ''}: ` +
            `${run.passed} passed (${Math.round((100 * run.passed) / run.cases)} %)`,
        })),
      );
      // The case count is written under the first point and wherever it changed.
      expect(await figure.locator('text.cases').allTextContents()).toEqual(environment === 'live' ? ['3'] : ['3', '4']);
      expect(await ofAll(figure.locator('a'), (links) => links.slice(1).map((a) => a.getAttribute('href')))).toEqual(
        runs.map((run) => `/w/acme/evals/${run.id}`),
      );
    }
    // Live's latest run (v2, 1 of 3 after the override) is the line preview is read against; the text says it all.
    const preview = page.locator('figure.trend').filter({ has: page.locator('figcaption', { hasText: 'preview' }) });
    expect(await preview.locator('.live text').textContent()).toBe('live 33 %');
    expect(await preview.locator('svg').getAttribute('role')).toBe('img');
    expect(await preview.locator('desc').textContent()).toBe(
      "Pass rate of the last 2 finished runs on preview: from 100 % (v3, 3 cases) to 75 % (v3, 4 cases); live's latest run: 33 % (v2).",
    );
    expect(
      await page
        .locator('figure.trend')
        .filter({ has: page.locator('figcaption', { hasText: 'live' }) })
        .locator('.live')
        .count(),
    ).toBe(0);
    await window.close();
  });

  it("each case's page shows its last live results as a strip, and a case that flipped on one version as flaky", async () => {
    const window = await windowOf(browser);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    await page.goto(`${platform.url}/w/acme/agents/support/evals`);
    const runs = await Promise.all(
      (await finishedRuns('live')).map(async (run) => (await api(`/evals/runs/${run.id}`)).body as EvalRunDetailView),
    );
    for (const [name, id] of Object.entries(cases)) {
      const item = page.locator(`li.eval-case[id="${id}"]`);
      const cells = await ofAll(item.locator('rect.cell'), (rects) => rects.map((r) => r.getAttribute('class')));
      const verdicts = runs.map((run) => run.results.find((r) => r.case_id === id)!.verdict);
      expect([name, cells]).toEqual([name, verdicts.map((verdict) => `cell ${verdict}`)]);
      expect([name, await item.locator('.strip .verdict.flaky').count()]).toEqual([name, name === 'greeting' ? 1 : 0]);
    }
    expect(await page.locator(`li.eval-case[id="${cases.greeting}"] svg`).getAttribute('aria-label')).toBe(
      'Last 3 live results, oldest first: pass (v1), pass (v2), fail (v2). Flaky: it flipped with no new version.',
    );
    await window.close();
  });

  it('a run page puts its failures above its details, names each case by its question, and compares with live on the cases both ran', async () => {
    const window = await windowOf(browser);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    await page.goto(`${platform.url}/w/acme/evals/${previewRun.id}`);
    const failing = page.getByRole('region', { name: 'Regressions and failures' });
    const failure = failing.locator(`li.result[id="${added}"]`);
    expect(await failure.locator('.question').textContent()).toBe('“Do you ship abroad? I live in Chile.”');
    const top = async (locator: Locator) => (await locator.boundingBox())!.y;
    expect(await top(failure)).toBeLessThan(await top(page.locator('dl.run-meta')));
    expect(await top(page.locator('dl.run-meta'))).toBeLessThan(await top(page.getByRole('region', { name: 'Passes' })));
    expect(await page.locator('.shared-cases').textContent()).toBe('4 cases here, 3 in live: compared on the 3 both ran; 1 new.');
    const row = async (name: string) =>
      (
        await page
          .locator('table.counts tr', { has: page.getByRole('rowheader', { name }) })
          .locator('td')
          .allTextContents()
      ).slice(0, 2);
    expect(await row('Cases')).toEqual(['3', '3']);
    // Live's latest run passed 1 of the 3 (a person failed its greeting); this run passes the 3.
    expect(await row('Passed')).toEqual(['3', '1']);
    await window.close();
  });

  it("an agent's cases page puts adding a case first, then the cases failing on live, and says which end of a strip is newest", async () => {
    const window = await windowOf(browser);
    await signIn(window, platform, 'ada@example.com');
    const page = await window.newPage();
    await page.goto(`${platform.url}/w/acme/agents/support/evals`);
    const top = async (locator: Locator) => (await locator.boundingBox())!.y;
    const add = page.getByRole('region', { name: 'Add a case' });
    expect(await top(add)).toBeLessThan(await top(page.locator('li.eval-case').first()));
    // The greeting's latest live result is the fail a person gave it, the weekend's a fail (live v2 does not say
    // "closed on Sundays"); the hours passed there, the case added never ran there.
    const failing = page.getByRole('region', { name: 'Failing on live' });
    expect(await ofAll(failing.locator('li.eval-case'), (items) => items.map((li) => li.getAttribute('id')))).toEqual([
      cases.greeting,
      cases.weekend,
    ]);
    expect(await page.locator('li.eval-case').first().getAttribute('id')).toBe(cases.greeting);
    const strip = page.locator(`li.eval-case[id="${cases.hours}"] .strip`);
    expect(await strip.locator('.strip-end').allTextContents()).toEqual(['Live: oldest', 'newest']);
    // The newest result sits at the right end, by the word: the slots not filled yet are on the left.
    const ends = await ofAll(strip.locator('rect'), (rects) => rects.map((r) => [r.getAttribute('class'), Number(r.getAttribute('x'))]));
    expect(ends.at(-1)).toEqual(['cell pass', Math.max(...ends.map(([, x]) => x as number))]);
    expect(ends[0]).toEqual(['slot', 0]);
    await window.close();
  });

  for (const width of widths) {
    it(`the runs page and a cases page with their trends fit a window ${width} px wide`, async () => {
      const window = await windowOf(browser, width);
      await signIn(window, platform, 'ada@example.com');
      const page = await window.newPage();
      await page.goto(`${platform.url}/w/acme/evals`);
      await expectFits(page, 'eval runs with trends');
      // Readable on a phone: the drawing is at least 300 px wide, its text no smaller than 9 px.
      const drawings = await ofAll(page.locator('figure.trend svg'), (svgs) =>
        svgs.map((svg) => ({ drawn: svg.getBoundingClientRect().width, text: svg.querySelector('text').getBoundingClientRect().height })),
      );
      for (const { drawn, text } of drawings) {
        expect(drawn).toBeGreaterThanOrEqual(Math.min(300, width - 40));
        expect(text).toBeGreaterThanOrEqual(9);
      }
      await page.goto(`${platform.url}/w/acme/agents/support/evals`);
      await expectFits(page, 'eval cases with strips');
      await page.goto(`${platform.url}/w/acme/evals/${previewRun.id}`);
      await expectFits(page, 'eval run compared with live');
      await window.close();
    });
  }
});
