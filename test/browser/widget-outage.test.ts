// Issue 27, widget defect 16, in real Chromium at 1280×800 and 390×844: a message typed while the
// server is away for more than ten seconds stays queued (in the page's storage too, so a closed tab
// loses nothing) and is sent when the server is back; an answer lost on the way is not a second
// message when the widget sends again (MessageId); a refused message keeps its text and gets a
// Retry button. Screenshots: /work/shots/widget-outage-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { pageDatabases } from '../support/databases.js';
import { startTestServerOn } from '../support/server.js';
import { demoSession, shot, VIEWPORTS, widgetKit } from '../support/widget-kit.js';

const NOT_SENT = 'Your message could not be sent. Please try again.';

for (const kind of pageDatabases()) {
  for (const viewport of VIEWPORTS) {
    describe(`widget through a server outage, issue 27 item 16 (Chromium ${viewport.width}×${viewport.height}, ${kind})`, () => {
      const session = demoSession(viewport, kind);
      let page: Page;
      const w = () => widgetKit(page, session.keys.webKey);
      const outbox = () => page.evaluate((key) => localStorage.getItem(`colloquy:${key}:outbox`), session.keys.webKey);
      /** The user texts of the conversation, as the server has them. */
      const userTexts = async () => {
        const res = await session.server.client.post('/custom/chat', { UserId: await w().userId(), Command: 'READY' }, { token: session.token });
        assert.equal(res.status, 200, res.text);
        return res.body.Parts.filter((p: { Type: number }) => p.Type === 19).map((p: { Text: string }) => p.Text);
      };
      const stopServer = async () => {
        const port = new URL(session.server.url).port;
        await session.server.close();
        return () => startTestServerOn(session.database, { PORT: port }).then((server) => void (session.server = server));
      };

      test('a message typed during an outage of more than ten seconds waits, in the page and in its storage, and is sent once the server is back', async () => {
        page = session.page;
        await page.goto(`${session.server.url}/demo`);
        await w().live();
        await w().button('Track an order').click();
        await w().said('What is your order number? (six digits)');
        await w().inputDisabled(false);
        const restart = await stopServer();
        await page.locator('#colloquy-widget[data-state="offline"]').waitFor({ state: 'attached' });
        await w().type('123456');
        await w().log().locator('.row.user.pending').getByText('123456', { exact: true }).waitFor();
        // longer than an outage the widget used to survive; the message must still be waiting, in storage too
        await page.waitForTimeout(11_000);
        assert.equal(await w().log().locator('.row.user.pending').getByText('123456', { exact: true }).count(), 1);
        assert.equal(await w().log().getByText(NOT_SENT).count(), 0);
        assert.match((await outbox()) ?? '', /"Text":"123456"/);
        await shot(page, `widget-outage-waiting-${viewport.width}`);
        await restart();
        await w().said('Order 123456 is on its way.');
        await w().live();
        assert.equal(await w().log().locator('.row.pending').count(), 0);
        assert.equal(await outbox(), null);
        assert.deepEqual(await userTexts(), ['Track an order', '123456']);
      });

      test('a tab closed during the outage loses nothing: the next page of the visitor sends the message', async () => {
        const restart = await stopServer();
        await page.locator('#colloquy-widget[data-state="offline"]').waitFor({ state: 'attached' });
        await w().type('no');
        await w().log().locator('.row.user.pending').getByText('no', { exact: true }).waitFor();
        const context = page.context();
        await page.close();
        await restart();
        page = await context.newPage();
        await page.goto(`${session.server.url}/demo`);
        await w().said('No problem.');
        assert.equal(await outbox(), null);
        assert.deepEqual(await userTexts(), ['Track an order', '123456', 'no']);
        await shot(page, `widget-outage-next-page-${viewport.width}`);
      });

      test('an answer lost on the way: the widget sends again and the server runs the message once', async () => {
        await w().live();
        let tries = 0;
        await page.route('**/web/*/messages', async (route) => {
          if (tries++ > 0) return route.continue();
          // the server gets the message and answers; the browser never sees the answer
          await route.fetch();
          await route.abort('connectionreset');
        });
        const welcomes = await w().log().getByText('What can I do for you?', { exact: true }).count();
        await w().type('restart');
        await w().log().getByText('What can I do for you?', { exact: true }).nth(welcomes).waitFor();
        await w().log().locator('.row.pending').waitFor({ state: 'detached' });
        await page.unroute('**/web/*/messages');
        assert.equal(tries, 2);
        assert.deepEqual(await userTexts(), ['Track an order', '123456', 'no', 'restart']);
        assert.equal(await w().log().locator('.row.user').getByText('restart', { exact: true }).count(), 1);
      });

      test('a refused message keeps its text and gets a Retry button; Retry sends it once', async () => {
        await page.route('**/web/*/messages', (route) =>
          route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ Code: 'RATE_LIMITED', Message: 'Too many requests.' }) }),
        );
        await w().button('Track an order').click();
        const retry = w().log().getByRole('button', { name: 'Retry', exact: true });
        await retry.waitFor();
        const newest = w().log().locator('.row.user').last();
        assert.equal(await newest.locator('.bubble').textContent(), 'Track an order');
        assert.equal(await newest.getByRole('button', { name: 'Retry', exact: true }).count(), 1);
        assert.match((await outbox()) ?? '', /"failed":true/);
        await shot(page, `widget-outage-retry-${viewport.width}`);
        await page.unroute('**/web/*/messages');
        const questions = await w().log().getByText('What is your order number? (six digits)', { exact: true }).count();
        await retry.focus();
        await page.keyboard.press('Enter');
        await w().log().getByText('What is your order number? (six digits)', { exact: true }).nth(questions).waitFor();
        await page.waitForFunction((key) => localStorage.getItem(`colloquy:${key}:outbox`) === null, session.keys.webKey);
        assert.equal(await retry.count(), 0);
        assert.equal(await outbox(), null);
        assert.deepEqual((await userTexts()).slice(-2), ['restart', 'Track an order']);
      });

      test('no page raised a script error', () => {
        assert.deepEqual(session.errors, []);
      });
    });
  }
}
