// Issue 27, widget defects 1, 8, 9, 10 and 14 on the server's /demo page, in real Chromium at
// 1280×800 and 390×844: a quick reply or card button chosen with Enter leaves the focus where the
// visitor can go on (the message field or the newest buttons) and Esc still closes; after a reload
// the times and the "talking with <operator>" notice stay where they were; an unban tells the
// visitor they can write again; a takeover turns the bot's old buttons off; the launcher's label
// carries the unread count. Screenshots: /work/shots/widget-place-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestServer } from '../support/server.js';
import { chatOk } from '../support/chat-kit.js';
import { demoSession, focusedInWidget, shot, VIEWPORTS, widgetKit } from '../support/widget-kit.js';

for (const viewport of VIEWPORTS) {
  describe(`widget keeps the visitor's place, issue 27 (Chromium ${viewport.width}×${viewport.height})`, () => {
    const session = demoSession(viewport);
    let page: Page;
    let server: TestServer;
    let token: string;
    test('the demo page opens', async () => {
      ({ page, server, token } = session);
      await page.goto(`${server.url}/demo`);
    });

    const w = () => widgetKit(page, session.keys.webKey);
    const setState = async (state: string, more: Record<string, unknown> = {}) => {
      const res = await server.client.post('/custom/state', { userid: await w().userId(), state, ...more }, { token });
      assert.equal(res.status, 200, res.text);
    };

    test('item 1: Enter on a quick reply puts the focus in the message field; Enter on a card button on the newest buttons; Esc still closes', async () => {
      await w().said('What can I do for you?');
      await w().live();
      await w().button('Track an order').focus();
      await page.keyboard.press('Enter');
      await w().said('What is your order number? (six digits)');
      await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.activeElement?.id === 'cq-input');
      // the next typed answer goes to the chat
      await page.keyboard.type('123456');
      await page.keyboard.press('Enter');
      await w().said('Order 123456 is on its way.');
      await page.keyboard.type('no');
      await page.keyboard.press('Enter');
      await w().said('No problem.');

      await w().type('restart');
      await w().button('Browse products').focus();
      await page.keyboard.press('Enter');
      await w().button('Kettle').waitFor();
      // the carousel does not take typing: the focus is on its first button, not on the page
      assert.equal(await focusedInWidget(page), 'Kettle');
      await page.keyboard.press('Enter');
      await w().said('Good choice: the Kettle.');
      await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.activeElement?.id === 'cq-input');
      await shot(page, `widget-place-1-keyboard-${viewport.width}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      assert.equal(await focusedInWidget(page), 'launcher');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').waitFor();
    });

    test("item 10: once a person takes over, the bot's old quick replies and cards cannot be clicked", async () => {
      await w().type('restart');
      await w().button('Browse products').click();
      await w().button('Toaster').waitFor();
      await setState('takeover');
      await w().said('You are now talking with a person.');
      for (const name of ['Kettle', 'Toaster']) assert.equal(await w().log().getByRole('button', { name, exact: true }).last().isDisabled(), true, name);
      await shot(page, `widget-place-10-takeover-${viewport.width}`);
    });

    test('item 8: after a reload the times stay, and the operator notice stays where the takeover happened', async () => {
      await chatOk(server, token, { UserId: await w().userId(), Text: 'Hi, Demo here. How can I help?' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
      await w().said('Hi, Demo here. How can I help?');
      await w().type('My kettle leaks');
      await w().said('My kettle leaks');
      const before = await w().transcript();
      assert.ok(before.filter((row) => row.time !== null).length >= 3, JSON.stringify(before));
      await page.reload();
      await w().said('My kettle leaks');
      await w().live();
      const after = await w().transcript();
      // every row that had a time still has it; the notice stands between the bot's cards and the operator's greeting
      // live rows carry the browser's clock, resumed ones the server's: the same moment, give or take a second
      const timed = (rows: typeof before) => rows.filter((r) => r.time !== null).slice(-3);
      assert.deepEqual(
        timed(after).map((r) => r.text),
        timed(before).map((r) => r.text),
      );
      for (const [i, row] of timed(after).entries()) assert.ok(Math.abs(Date.parse(row.time!) - Date.parse(timed(before)[i].time!)) < 1000, row.text);
      const order = after.map((r) => r.text).filter((text) => /talking with|Demo here|kettle leaks/.test(text));
      assert.deepEqual(order, ['You are now talking with a person.', 'Hi, Demo here. How can I help?', 'My kettle leaks']);
      await shot(page, `widget-place-8-reloaded-${viewport.width}`);
    });

    test('item 9: after an unban the visitor is told they can write again, and can', async () => {
      await setState('ban', { message: 'Please calm down.' });
      await w().said('Please calm down.');
      // during the ban the cards were off
      assert.equal(await w().log().getByRole('button', { name: 'Toaster', exact: true }).last().isDisabled(), true);
      await setState('unban');
      await w().said('You can write again.');
      await shot(page, `widget-place-9-unbanned-${viewport.width}`);
      // the bot has it back where it stood (the product cards): they work again
      await w().button('Toaster').click();
      await w().said('Good choice: the Toaster.');
      await w().inputDisabled(false);
      assert.equal(await w().input().getAttribute('placeholder'), 'Type a message…');
    });

    test("item 14: the launcher's accessible name carries the unread count", async () => {
      await setState('takeover');
      await w().close();
      for (const text of ['One more thing', 'and another']) {
        await chatOk(server, token, { UserId: await w().userId(), Text: text }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
      }
      const launcher = page.getByRole('button', { name: 'Open chat with Support Desk, 2 unread messages', exact: true });
      await launcher.waitFor();
      await shot(page, `widget-place-14-unread-${viewport.width}`);
      await launcher.click();
      await page.getByRole('button', { name: 'Close chat', exact: true }).first().waitFor();
      await w().close();
      assert.equal(await page.getByRole('button', { name: 'Open chat with Support Desk', exact: true }).count(), 1);
    });

    test('no page raised a script error', () => {
      assert.deepEqual(session.errors, []);
    });
  });
}
