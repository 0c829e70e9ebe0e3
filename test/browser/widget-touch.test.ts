// Issue 37 (minor): the widget opened by a finger on a phone does not focus its message field, so
// the phone's keyboard does not pop up over the conversation; opened by a mouse or the keyboard it
// still does (a keyboard user lands where they can type). Screenshot: widget-touch-390.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoSession, shot } from '../support/widget-kit.js';

const PHONE = { width: 390, height: 844 };
const active = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const element = document.querySelector('#colloquy-widget')!.shadowRoot!.activeElement as HTMLElement | null;
    return element ? element.id || element.className : null;
  });

describe('the widget on a touch screen (Chromium)', () => {
  const session = demoSession(PHONE);

  test('a tap opens it without focusing the message field; the conversation has the focus', async () => {
    const context = await session.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${session.server.url}/demo`);
    const dialog = page.getByRole('dialog');
    // the demo page opens the chat on load; the bot waits for typing once a button is chosen
    await dialog.waitFor();
    await page.getByRole('log', { name: 'Conversation' }).getByRole('button', { name: 'Track an order', exact: true }).last().tap();
    await page.getByRole('log', { name: 'Conversation' }).getByText('What is your order number? (six digits)', { exact: true }).waitFor();
    await page.waitForFunction(() => !document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled);
    await page.getByRole('button', { name: 'Close chat' }).first().tap();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: /^Open chat/ }).tap();
    await dialog.waitFor();
    assert.equal(await active(page), 'scroller', 'the conversation, not the message field, has the focus: no keyboard pops up');
    await shot(page, 'widget-touch-390');
    await context.close();
  });

  test('a click (mouse) and Enter (keyboard) still put the focus in the message field', async () => {
    const page = session.page;
    await page.goto(`${session.server.url}/demo`);
    const dialog = page.getByRole('dialog');
    const log = page.getByRole('log', { name: 'Conversation' });
    await dialog.waitFor();
    await log.getByRole('button', { name: 'Track an order', exact: true }).last().click();
    await log.getByText('What is your order number? (six digits)', { exact: true }).waitFor();
    await page.waitForFunction(() => !document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled);
    await page.getByRole('button', { name: 'Close chat' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: /^Open chat/ }).click();
    await dialog.waitFor();
    assert.equal(await active(page), 'cq-input', 'a mouse lands in the message field');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    assert.equal(await active(page), 'cq-input', 'so does the keyboard');
  });
});
