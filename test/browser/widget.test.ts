// The widget in real Chromium on the server's /demo page: the support bot walked through its
// buttons, the product carousel and the order-number input, a reload that resumes the history,
// an operator message injected through POST /custom/chat that appears live, and the keyboard.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { launchChromium, screenshot, servePictures } from '../support/browser.js';
import { chatOk } from '../support/chat-kit.js';
import { botToken } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('web widget on /demo (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let keys: DemoKeys;
  let token: string;
  const shots: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    keys = (await seedDemo(server.running.services))!;
    token = await botToken(server.client, keys.accountKey, keys.botKey, keys.botSecret);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1000, height: 720 } });
    page = await context.newPage();
    await servePictures(page);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  const log = () => page.getByRole('log', { name: 'Conversation' });
  const input = () => page.getByRole('textbox', { name: 'Message' });
  // the newest of the buttons still enabled: older ones are turned off once the bot asks something new
  const button = (name: string) => log().getByRole('button', { name, exact: true, disabled: false }).last();
  // the host element has no box of its own (its content is fixed): attached, not visible
  const live = () => page.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' });
  const said = (text: string) => log().getByText(text, { exact: true }).last().waitFor();
  const type = async (text: string) => {
    await input().fill(text);
    await input().press('Enter');
  };
  /** Calls the page API: Colloquy.<method>(arg). */
  const colloquy = (method: 'say' | 'reset' | 'open' | 'close', arg?: string) =>
    page.evaluate(([m, a]) => (window as unknown as { Colloquy: Record<string, (text?: string) => unknown> }).Colloquy[m](a), [method, arg] as [string, string | undefined]);
  const userId = () => page.evaluate((key) => localStorage.getItem(`colloquy:${key}:user`), keys.webKey);

  test('the demo page embeds the widget for the demo bot, opened, with the welcome and its buttons', async () => {
    await page.goto(`${server.url}/demo`);
    await said('Welcome to ACME support!');
    await said('What can I do for you?');
    for (const name of ['Track an order', 'Browse products', 'Talk to a person', 'Ask the assistant']) await button(name).waitFor();
    await log().getByRole('link', { name: 'Help center (opens in a new tab)' }).waitFor();
    assert.equal(await page.getByRole('dialog', { name: 'Support Desk' }).isVisible(), true);
    // the welcome interaction does not let the user type
    await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled);
    assert.equal(await input().getAttribute('placeholder'), 'Choose an option above');
    await live();
    shots.push(await screenshot(page, 'widget-1-welcome'));
  });

  test('a button sends its payload; the carousel shows cards whose buttons work', async () => {
    await button('Browse products').click();
    await log().locator('.row.user').getByText('Browse products', { exact: true }).waitFor();
    const carousel = log().getByRole('group', { name: /2 cards/ });
    await carousel.waitFor();
    await carousel.getByRole('group', { name: 'Kettle (1 of 2)' }).waitFor();
    await carousel.getByRole('link', { name: 'Specs (opens in a new tab)' }).waitFor();
    assert.equal(await carousel.locator('img').count(), 2);
    shots.push(await screenshot(page, 'widget-2-carousel'));
    // keyboard: arrow keys move between the cards
    await carousel.getByRole('button', { name: 'Kettle' }).focus();
    await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate(() => document.querySelector('#colloquy-widget')!.shadowRoot!.activeElement?.textContent);
    assert.equal(focused, 'Toaster');
    await page.keyboard.press('Enter');
    await said('Good choice: the Toaster.');
    await log()
      .getByText(/^(Anything else\?|Can I help with something else\?)$/)
      .waitFor();
    await page.waitForFunction(() => !document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled);
  });

  test('the order-number input: a wrong answer, then a right one, typed into the widget', async () => {
    await type('restart');
    await button('Track an order').click();
    await said('What is your order number? (six digits)');
    await type('12');
    await said('That does not look like an order number.');
    await type('123456');
    await said('Order 123456 is on its way.');
    await said("May we e-mail you updates? Type your address, or 'no'.");
    await type('no');
    await said('No problem.');
    // the same question ended the carousel step: wait until it is the newest row again
    await page.waitForFunction(() => {
      const rows = document.querySelector('#colloquy-widget')!.shadowRoot!.querySelectorAll('.row');
      return /^(Anything else\?|Can I help with something else\?)$/.test(rows[rows.length - 1]?.textContent ?? '');
    });
    shots.push(await screenshot(page, 'widget-3-order'));
  });

  test('a reload resumes the conversation: the same user id and its whole history', async () => {
    const before = await userId();
    assert.ok(before);
    const count = await log().locator('.row').count();
    await page.reload();
    await said('No problem.');
    await live();
    assert.equal(await userId(), before);
    for (const text of ['Welcome to ACME support!', 'Browse products', 'Good choice: the Toaster.', '123456', 'Order 123456 is on its way.']) {
      assert.ok((await log().getByText(text, { exact: true }).count()) > 0, text);
    }
    assert.equal(await log().locator('.row').count(), count);
    shots.push(await screenshot(page, 'widget-4-reloaded'));
  });

  test('an OPERATOR message injected with POST /custom/chat (CHANNEL web) appears at once', async () => {
    const user = (await userId())!;
    await chatOk(server, token, { UserId: user, Text: 'Hello, I am Ann from ACME. Your parcel ships today.' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
    const row = log().locator('.row.operator').last();
    await row.getByText('Hello, I am Ann from ACME. Your parcel ships today.').waitFor({ timeout: 3000 });
    assert.equal(await row.locator('.who').textContent(), 'Operator');
    shots.push(await screenshot(page, 'widget-5-operator-live'));
    // a DIRECTION USER turn made elsewhere shows the user's text and the bot's answer
    await chatOk(server, token, { UserId: user, Text: 'restart' }, { CHANNEL: 'web' });
    await log().getByText('restart', { exact: true }).last().waitFor();
    await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled);
  });

  test('closed window: live messages raise the unread badge; Escape closes and the launcher reopens', async () => {
    await button('Track an order').focus();
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('dialog').isVisible(), false);
    const launcher = page.getByRole('button', { name: 'Open chat with Support Desk' });
    assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.querySelector('#colloquy-widget')!.shadowRoot!.activeElement?.className), 'launcher');
    await chatOk(server, token, { UserId: (await userId())!, Text: 'Are you still there?' }, { CHANNEL: 'web', DIRECTION: 'BOT' });
    await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('.badge')!.textContent === '1');
    shots.push(await screenshot(page, 'widget-6-badge'));
    await page.keyboard.press('Enter'); // the focused launcher
    await page.getByRole('dialog').waitFor();
    await said('Are you still there?');
  });

  test('the API: say() sends a text, reset() starts a new conversation', async () => {
    const before = await userId();
    await colloquy('say', 'human');
    await said('I am asking a colleague to join. Please hold on.');
    await colloquy('reset');
    await said('Welcome to ACME support!');
    assert.notEqual(await userId(), before);
    assert.equal(await log().getByText('human', { exact: true }).count(), 0);
    await colloquy('close');
    assert.equal(await page.getByRole('dialog').isVisible(), false);
    await colloquy('open');
    assert.equal(await page.getByRole('dialog').isVisible(), true);
  });
});
