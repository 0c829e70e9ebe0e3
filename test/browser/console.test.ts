// The operator console in real Chromium (issue 4): an operator signs in, a conversation requested
// through the support bot appears live (no reload), is taken over, gets an operator message that
// the custom-channel client then receives with PENDING, is handed back; a view share URL opens a
// page that cannot send. Screenshots go to test-output/console-*.png.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, servePictures } from '../support/browser.js';
import { chatOk, summary, uid } from '../support/chat-kit.js';
import { addOperator } from '../support/console-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The support bot's "Browse products" button (assets/support.bot.json). */
const BROWSE_PRODUCTS = '6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e02';

describe('operator console (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let tenant: Tenant;
  const user = uid('browser');
  const quiet = uid('quiet');
  const shots: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client);
    await addOperator(server.client, tenant.accountId, 'ann@example.org', 'a long password', 'Ann');
    // another conversation, so the list has something to order: it browsed the product carousel
    await chatOk(server, tenant.botToken, { UserId: quiet });
    await chatOk(server, tenant.botToken, { UserId: quiet, Command: BROWSE_PRODUCTS });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await servePictures(page);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  const list = () => page.getByRole('navigation', { name: 'Conversations' });
  const entry = () => list().getByRole('button', { name: new RegExp(user) });
  const messageBox = () => page.getByLabel('Message to the user');
  const badge = () => page.locator('#conversation-state');

  test('a wrong password is refused on the sign-in form; the right one opens the console', async () => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel('E-mail', { exact: true }).fill('ann@example.org');
    await page.getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Wrong e-mail or password.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('a long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Conversations' }).waitFor();
    // the header names the operator; the e-mail is on hover (issue 37: the header stays one line)
    await page.locator('#who-name[title="ann@example.org"]').getByText('Ann', { exact: true }).waitFor();
    shots.push(await screenshot(page, 'console-1-signed-in'));
  });

  test('a conversation requested through the support bot appears live, first in the list', async () => {
    assert.equal(await entry().count(), 0);
    await chatOk(server, tenant.botToken, { UserId: user, Text: 'human' });
    await entry().waitFor({ timeout: 5000 });
    // the list says the user waits for a person, and for how long (issue 15 "Build")
    await entry()
      .getByText(/^Waiting for a person · (just now|\d+ min)$/)
      .waitFor();
    const first = list().getByRole('button').first();
    assert.match((await first.textContent()) ?? '', new RegExp(user));
    shots.push(await screenshot(page, 'console-2-requested-live'));
  });

  test('open it, take it over, write to the user: the custom-channel client receives it with PENDING', async () => {
    await entry().click();
    await page.getByRole('heading', { name: user }).waitFor();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('I am asking a colleague to join. Please hold on.').waitFor();
    await transcript.getByText('human', { exact: true }).waitFor();
    assert.equal(await messageBox().isDisabled(), true, 'no writing before a takeover');

    await page.getByRole('button', { name: 'Take over' }).click();
    // the operator's display name, as the visitor sees it (issue 27 item 11)
    await badge().getByText('Taken over by Ann').waitFor();
    assert.equal(await messageBox().isEnabled(), true);
    await messageBox().fill('Hi, Ann from support here.');
    await page.getByRole('button', { name: 'Send' }).click();
    await transcript.getByText('Hi, Ann from support here.').waitFor();

    const pending = await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' });
    assert.deepEqual(summary(pending.Parts), [[0, 'Hi, Ann from support here.']]);
    assert.equal(pending.ControlType, 2);

    // the user answers: it shows up live in the open transcript
    await chatOk(server, tenant.botToken, { UserId: user, Text: 'Thanks Ann!' });
    await transcript.getByText('Thanks Ann!').waitFor({ timeout: 5000 });
    shots.push(await screenshot(page, 'console-3-taken-over'));
  });

  test('hand it back (making share links view-only): the bot has it again, the message box is disabled', async () => {
    await page.locator('#more-menu > summary').click();
    await page.getByLabel('When you hand back, links that let others see this conversation').selectOption('viewshares');
    await page.getByRole('button', { name: 'Hand back to the bot' }).click();
    await badge().getByText('Bot', { exact: true }).waitFor();
    assert.equal(await messageBox().isDisabled(), true);
    const state = await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken });
    assert.equal(state.body.State, 0);
    await entry().getByText('Bot', { exact: true }).waitFor();
    shots.push(await screenshot(page, 'console-4-handed-back'));
  });

  test('the transcript shows the user’s clicks, buttons and carousel cards with their pictures', async () => {
    await list()
      .getByRole('button', { name: new RegExp(quiet) })
      .click();
    await page.getByRole('heading', { name: quiet }).waitFor();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('Browse products', { exact: true }).first().waitFor();
    await transcript.getByLabel('button: Track an order').waitFor();
    await transcript.getByRole('link', { name: 'Help center' }).waitFor();
    await transcript.getByText('Kettle', { exact: true }).first().waitFor();
    await transcript.getByText('1.7 l, steel').waitFor();
    await transcript.getByRole('img', { name: 'Toaster' }).waitFor();
    await transcript.getByRole('link', { name: 'Specs' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Take over' }).isEnabled(), true);
    shots.push(await screenshot(page, 'console-5-cards'));
  });

  test('a view share URL opens the conversation read-only: no enabled message box, live transcript', async () => {
    const res = await server.client.post('/custom/share', { UserId: user, Mode: 'view', Hours: 1 }, { token: tenant.botToken });
    assert.equal(res.status, 200, res.text);
    const shared = await page.context().newPage();
    shared.on('pageerror', (error) => pageErrors.push(error.message));
    await shared.goto(res.body.Url);
    await shared.getByRole('heading', { name: user }).waitFor();
    await shared.getByText('Hi, Ann from support here.').waitFor();
    const box = shared.getByLabel('Message to the user');
    assert.equal(await box.isDisabled(), true);
    assert.equal(await shared.getByRole('button', { name: 'Send' }).isDisabled(), true);
    await shared.getByText('This link lets you watch the conversation only.').waitFor();
    assert.equal(await shared.getByRole('button', { name: 'Take over' }).isVisible(), false, 'no operator controls');
    assert.equal(await shared.getByRole('navigation', { name: 'Conversations' }).isVisible(), false, 'one conversation only');
    await chatOk(server, tenant.botToken, { UserId: user, Text: 'restart' });
    await shared.getByText('restart', { exact: true }).waitFor({ timeout: 5000 });
    shots.push(await screenshot(shared, 'console-6-view-share'));
    const state = await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken });
    assert.equal(state.body.State, 0, 'a view link does not take over');
  });

  test('a forged share URL shows a 404 page', async () => {
    const shared = await page.context().newPage();
    const response = await shared.goto(`${server.url}/share/forged-code`);
    assert.equal(response?.status(), 404);
    await shared.getByRole('heading', { name: 'This link does not exist' }).waitFor();
    shots.push(await screenshot(shared, 'console-7-forged-share'));
  });

  test('signing out returns to the sign-in form; the page raised no script errors', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const me = await page.evaluate(() => fetch('/console/api/me').then((r) => r.status));
    assert.equal(me, 401);
    assert.deepEqual(pageErrors, []);
  });
});
