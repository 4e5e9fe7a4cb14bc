import { type FakeProvider, request, startFakeProvider } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { orderAgent } from '../agents/order-agent.ts';
import { invitationLink } from '../members/setup.ts';
import { expectFits, launchChromium, widths, windowOf } from './chromium.ts';

// Long values, as real ones can be: they must wrap, never widen the page.
const email = 'ada.lovelace-analytical-engines@example-research-institute.org';
const acme = { slug: 'acme-support-operations', name: 'Acme Support Operations International Holdings' };
const globex = { slug: 'globex-customer-care-eu-west-1', name: 'Globex Customer Care' };
const hostname = 'build-server-with-a-rather-long-hostname.internal.example.com';
const userAgent = 'svc-cli/1.0 (linux; x64; node 20.18.0) Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)';

const visitorLine =
  'hello, I would like to know where my order is, it was supposed to arrive last week and nothing came: A-100200300400500';
let platform: TestPlatform;
let browser: Browser;
let backend: FakeProvider;
let chatId: string;
/** A chat never flagged: each width shows its reply's flag form with a warning, and saves nothing. */
let warnedChatId: string;

beforeAll(async () => {
  // A backend whose answer has long unbroken values, as a tracking URL or a token can be.
  backend = await startFakeProvider(() => ({
    status: 200,
    body: { status: 'shipped', tracking_url: `https://tracking.example.com/${'x'.repeat(200)}`, notes: 'n'.repeat(300) },
  }));
  platform = await startPlatform({ localMode: true, toolEgress: { allowPrivateNetworks: true } });
  browser = await launchChromium();
  const { identity, workspaces, store } = platform.core.services;
  const ada = await identity.findOrCreateUser(email);
  await workspaces.create(ada.id, acme);
  const bob = await identity.findOrCreateUser('bob@example.com');
  const created = await workspaces.create(bob.id, globex);
  const globexId = (await store.workspaces.findBySlug(created.slug))!.id;
  await store.workspaces.addMember(globexId, ada.id, 'supervisor', new Date().toISOString());
  const { token } = await identity.issueToken(ada.id, `svc CLI on ${hostname}`);
  const api = (path: string, json?: object, method?: string) => request(`${platform.url}${path}`, { token, json, method });
  expect((await api('/cli/whoami')).status).toBe(200);
  expect((await api(`/api/developer/v1/${acme.slug}/sender`, { kind: 'dev' }, 'PUT')).status).toBe(200);
  expect((await api(`/api/v1/${acme.slug}/phone_verifications`, { phone_number: '+56912345678' })).status).toBe(201);
  await vi.waitFor(async () => expect((await request(`${platform.url}/dev/outbox.json`)).body.messages).toHaveLength(1), {
    timeout: 30_000,
  });
  const files = { ...orderAgent({ url: backend.url }), 'svc.yaml': `workspace: ${acme.slug}\n` };
  expect(
    (await api(`/api/developer/v1/${acme.slug}/deployments`, { environment: 'feat-a-rather-long-branch-name-for-tests', files })).status,
  ).toBe(201);
  chatId = (await api(`/api/v1/${acme.slug}/chats`, { agent: 'support', environment: 'feat-a-rather-long-branch-name-for-tests' })).body
    .chat_id;
  expect((await api(`/api/v1/${acme.slug}/chats/${chatId}/messages`, { text: visitorLine })).status).toBe(201);
  warnedChatId = (await api(`/api/v1/${acme.slug}/chats`, { agent: 'support', environment: 'feat-a-rather-long-branch-name-for-tests' }))
    .body.chat_id;
  expect(
    (await api(`/api/v1/${acme.slug}/chats/${warnedChatId}/messages`, { text: 'and where is order A-100200300400500 now?' })).status,
  ).toBe(201);
  // An eval run, finished, for the runs list and its badges.
  const evals = `/api/developer/v1/${acme.slug}/evals`;
  expect((await api(`${evals}/cases`, { agent: 'support', turns: ['where is my order?'], expected: 'Says "shipped".' })).status).toBe(201);
  const run = await api(`${evals}/runs`, { environment: 'feat-a-rather-long-branch-name-for-tests' });
  expect(run.status).toBe(202);
  await vi.waitFor(async () => expect((await api(`${evals}/runs/${run.body.id}`)).body.finished).toBe(true), { timeout: 30_000 });
  // A person's verdict on its case: the runs page measures the grader against it, in a table of its own.
  const [result] = (await api(`${evals}/runs/${run.body.id}`)).body.results;
  expect((await api(`${evals}/runs/${run.body.id}/results/${result.case_id}/override`, { verdict: 'fail' }, 'PUT')).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
  await backend.close();
});

it.each(widths)(
  'every console and dev page fits a window %i px wide, with JavaScript off',
  async (width) => {
    const window = await windowOf(browser, width);
    const page = await window.newPage();
    // What a page asks for besides itself is there: the stylesheet and the icon (a missing favicon logs a 404).
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404 && response.request().resourceType() !== 'document') missing.push(response.url());
    });
    const visit = async (path: string, name: string) => {
      await page.goto(`${platform.url}${path}`);
      await expectFits(page, name);
    };

    await visit('/login', 'sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    await expectFits(page, 'check-mail');

    await visit('/dev/mailbox', 'dev-mailbox');
    await page
      .getByRole('link', { name: /\/auth\/link\// })
      .first()
      .click();
    await page.getByRole('button', { name: `Continue as ${email}` }).waitFor();
    await expectFits(page, 'continue-as');
    await page.getByRole('button', { name: `Continue as ${email}` }).click();
    await page.getByText(`Signed in as ${email}`).waitFor();
    await expectFits(page, 'home');
    await page.getByText('Workspaces', { exact: true }).click();
    await page
      .getByRole('navigation', { name: 'svc' })
      .getByRole('link', { name: new RegExp(globex.name) })
      .waitFor();
    await expectFits(page, 'home-switcher-open');
    await visit(`/w/${globex.slug}`, 'workspace');
    await visit(`/w/${acme.slug}/inbox`, 'inbox');
    await page.getByRole('link', { name: visitorLine }).click();
    await page.getByText('Turn details').click();
    await page.getByRole('heading', { name: 'Tool call order_status' }).waitFor();
    await expectFits(page, 'chat-turn-details-open');
    // A long note, as a supervisor may write. Both widths share the chat: the first flags the reply, the second finds it flagged.
    if (!(await page.getByRole('link', { name: 'Remove flag' }).count())) {
      await page.locator('.flag-form summary').click();
      await expectFits(page, 'chat-flag-form-open');
      await page.getByLabel(/What should the agent have said/).fill(`Say where the order is: ${'y'.repeat(200)}`);
      await page.getByRole('button', { name: 'Save flag' }).click();
    }
    await page.getByRole('link', { name: 'Remove flag' }).waitFor();
    await expectFits(page, 'chat-flagged');
    // A note quoting the reply, long unbroken tracking link and all: the warning wraps in the form.
    await page.goto(`${platform.url}/w/${acme.slug}/chats/${warnedChatId}`);
    const said = await page.locator('.message.agent .text').textContent();
    await page.locator('.flag-form summary').click();
    await page.getByLabel(/What should the agent have said/).fill(`"${said}"`);
    await page.getByRole('button', { name: 'Save flag' }).click();
    await page.getByRole('alert').waitFor();
    await expectFits(page, 'chat-flag-warning');
    await visit(`/w/${acme.slug}/flags`, 'flags');
    await visit(`/w/${acme.slug}/evals`, 'eval-runs');
    expect(await page.locator('table.graders tbody tr').count()).toBe(1);
    await page.getByRole('navigation', { name: 'svc' }).getByRole('link', { name: 'Members' }).click();
    await page
      .getByRole('heading', { name: /Members/ })
      .first()
      .waitFor();
    await visit(`/w/${acme.slug}/members`, 'members');
    await page.getByRole('button', { name: 'Send invitation' }).waitFor();
    const invited = `carol.${width}@example.com`;
    await page.getByLabel('Email').fill(invited);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('heading', { name: 'Pending invitations' }).waitFor();
    await expectFits(page, 'members-invited');
    const mailed = await invitationLink(platform, invited);
    await visit(mailed, 'invitation-other-account');

    await visit('/tokens', 'tokens');
    await page.getByRole('link', { name: 'Revoke' }).first().click();
    await page.getByRole('heading', { name: /^Revoke .*\?$/ }).waitFor();
    await expectFits(page, 'revoke-token');

    const started = await request(`${platform.url}/cli/device_authorizations`, {
      json: { hostname },
      headers: { 'user-agent': userAgent },
    });
    await visit('/device', 'device-code');
    await visit(`/device?user_code=${started.body.user_code}`, 'device-approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('You can return to your terminal').waitFor();
    await expectFits(page, 'device-approved');
    await visit(`/device?user_code=${started.body.user_code}`, 'device-settled');

    await visit('/dev/outbox', 'dev-outbox');
    await visit('/auth/link/not-a-link', 'link-expired');
    await visit('/tokens/tok_unknown/revoke', 'error');
    expect(missing).toEqual([]);
    await window.close();
  },
  90_000,
);
