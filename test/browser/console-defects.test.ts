// Issue 15, "Broken" items 1, 2, 4, 5, 6 and 8 in the operator console, in real Chromium at
// 1280×800 and on a 390×844 phone: a long word must not push the conversation pane past the
// window, Forget reports success, a clicked conversation is marked current at once (and focus is
// not lost after sign-in), a lost server is reported in words, the console and the share page fit
// a phone, and right-to-left text is laid out right to left. Screenshots: test-output/console-defect-*.png.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator } from '../support/console-kit.js';
import { formSignedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const LONG_WORD = 'W'.repeat(130);
const ARABIC = 'مرحبا، أريد تتبع طلبي من فضلك';

describe('operator console defects of issue 15 (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  const longUser = uid('long');
  const rtlUser = uid('rtl');
  const doomed = uid('doomed');
  const shots: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client);
    await addOperator(server.client, tenant.accountId, 'ann@example.org', 'a long password', 'Ann');
    await chatOk(server, tenant.botToken, { UserId: doomed, Text: 'forget me' });
    await chatOk(server, tenant.botToken, { UserId: rtlUser, Text: ARABIC });
    await chatOk(server, tenant.botToken, { UserId: longUser, Text: LONG_WORD });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  async function signedIn(width: number, height: number): Promise<Page> {
    return formSignedInPage(browser, server, 'ann@example.org', 'a long password', { width, height }, pageErrors);
  }
  const entry = (page: Page, user: string) => page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: new RegExp(user) });
  const open = async (page: Page, user: string) => {
    await entry(page, user).click();
    await page.getByRole('heading', { name: user }).waitFor();
  };
  const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
  const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

  test('item 1: a 130-character word keeps Send and the transcript inside the window, the list at its width', async () => {
    const page = await signedIn(1280, 800);
    await open(page, longUser);
    await page.getByRole('list', { name: 'Transcript' }).getByText(LONG_WORD).waitFor();
    shots.push(await screenshot(page, 'console-defect-1-long-word'));
    assert.equal(await pageWidth(page), 1280);
    const send = await box(page, '#message-send');
    assert.ok(send.x + send.width <= 1280, `Send ends at ${send.x + send.width}`);
    const transcript = await box(page, '#transcript');
    assert.ok(transcript.x + transcript.width <= 1280, `the transcript ends at ${transcript.x + transcript.width}`);
    // the list keeps its full width (22rem) instead of being squeezed to its minimum
    assert.equal(Math.round((await box(page, '#list-panel')).width), 352);
    await page.close();
  });

  test('item 6: focus goes to the conversation list after sign-in; a click marks the conversation current at once', async () => {
    const page = await signedIn(1280, 800);
    const focusedInList = await page.evaluate(() => document.getElementById('list-panel')!.contains(document.activeElement));
    assert.equal(focusedInList, true, 'focus is in the conversation list after sign-in');
    await open(page, rtlUser);
    assert.equal(await entry(page, rtlUser).getAttribute('aria-current'), 'true');
    assert.equal(await entry(page, longUser).getAttribute('aria-current'), null);
    const background = await entry(page, rtlUser).evaluate((b) => getComputedStyle(b).backgroundColor);
    assert.equal(background, 'rgb(232, 238, 252)');
    shots.push(await screenshot(page, 'console-defect-6-current'));
    await page.close();
  });

  test('item 8: right-to-left text is laid out right to left in the transcript', async () => {
    const page = await signedIn(1280, 800);
    await open(page, rtlUser);
    const text = page.getByRole('list', { name: 'Transcript' }).getByText(ARABIC);
    assert.equal(await text.evaluate((p) => getComputedStyle(p).direction), 'rtl');
    shots.push(await screenshot(page, 'console-defect-8-rtl'));
    await page.close();
  });

  test('item 4: a server that cannot be reached is reported in words, not as "Failed to fetch"', async () => {
    const page = await signedIn(1280, 800);
    // The live stream's `ready` reads the list once more (issue 27); a success would rightly
    // clear the message, so the test waits for that read before the server goes away.
    await page.waitForFunction(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/console/api/conversations')).length >= 2);
    await page.route('**/console/api/conversations/**', (route) => route.abort('connectionrefused'));
    await entry(page, longUser).click();
    const status = page.locator('#status');
    await page.waitForFunction(() => document.getElementById('status')!.textContent !== '');
    assert.equal(await status.textContent(), 'The server cannot be reached. Check your connection; the console tries again on your next action.');
    assert.equal(await status.getAttribute('class'), 'status error');
    shots.push(await screenshot(page, 'console-defect-4-offline'));
    await page.unroute('**/console/api/conversations/**');
    await open(page, longUser);
    assert.equal(await status.textContent(), '', 'the message goes once the server answers again');
    await page.close();
  });

  test('item 2: Forget reports that the conversation is being forgotten, with no error', async () => {
    const page = await signedIn(1280, 800);
    page.on('dialog', (dialog) => void dialog.accept());
    await open(page, doomed);
    // The live "forgotten" event usually reaches the page before the POST's answer: hold the
    // answer until the page has handled the event, so the test always sees that order.
    await page.route('**/forget', async (route) => {
      const response = await route.fetch();
      await page.waitForFunction(() => !document.getElementById('conversation-placeholder')!.hidden);
      await route.fulfill({ response });
    });
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Forget' }).click();
    await page.getByText('Choose a conversation.').waitFor();
    await entry(page, doomed).waitFor({ state: 'detached' });
    const status = page.locator('#status');
    assert.match((await status.textContent()) ?? '', new RegExp(`^${doomed} (is being|was) forgotten\\.$`));
    assert.equal(await status.getAttribute('class'), 'status');
    assert.equal((await server.client.get(`/custom/state?userid=${doomed}`, { token: tenant.botToken })).status, 404);
    shots.push(await screenshot(page, 'console-defect-2-forget'));
    await page.close();
  });

  test('item 5: the console with an open conversation fits a 390×844 phone; Hand back and Ban are reachable', async () => {
    const page = await signedIn(390, 844);
    await open(page, longUser);
    await page.getByRole('button', { name: 'Take over' }).click();
    await page
      .locator('#conversation-state')
      .getByText(/Taken over/)
      .waitFor();
    shots.push(await screenshot(page, 'console-defect-5-phone'));
    assert.equal(await pageWidth(page), 390);
    // the rare actions are in the More menu (issue 27 item 18)
    await page.locator('#more-menu > summary').click();
    for (const name of ['Hand back to the bot', 'Ban', 'Forget', 'Send']) {
      const b = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      assert.ok(b.x >= 0 && b.x + b.width <= 390, `${name}: ${b.x}..${b.x + b.width}`);
    }
    await page.close();
  });

  test('item 5: the share page fits a 390×844 phone', async () => {
    const res = await server.client.post('/custom/share', { UserId: longUser, Mode: 'view', Hours: 1 }, { token: tenant.botToken });
    assert.equal(res.status, 200, res.text);
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(res.body.Url);
    await page.getByRole('heading', { name: longUser }).waitFor();
    await page.getByText(LONG_WORD).waitFor();
    shots.push(await screenshot(page, 'console-defect-5-share-phone'));
    assert.equal(await pageWidth(page), 390);
    await page.close();
  });

  test('no page raised a script error', () => {
    assert.deepEqual(pageErrors, []);
  });
});
