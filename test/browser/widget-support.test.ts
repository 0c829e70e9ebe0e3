// Issue 27 "Build", the widget's side, in real Chromium at 1280×800 and 390×844 on /demo: the page's
// context and the e-mail the bot asked for reach the console with the visitor's earlier
// conversation; a visitor waiting for a person sees their place in the queue; their typing reaches
// the console's live stream; the operator's typing and picture (or initials on a colour of their
// own) reach the visitor; axe-core finds nothing serious. Screenshots: /work/shots/widget-support-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { DEMO_OPERATOR_EMAIL } from '../../src/demo.js';
import { seriousViolations } from '../support/axe.js';
import { botIdOf, consoleClient, readEvents, signIn } from '../support/console-kit.js';
import { demoSession, shot, VIEWPORTS, widgetKit } from '../support/widget-kit.js';

for (const viewport of VIEWPORTS) {
  describe(`widget for support teams, issue 27 (Chromium ${viewport.width}×${viewport.height})`, () => {
    const session = demoSession(viewport);
    let page: Page;
    let c: ReturnType<typeof consoleClient>;
    let botId: string;
    const w = () => widgetKit(page, session.keys.webKey);
    const conversation = async () => c.conversationPath(botId, await w().userId());

    test('the page, browser and language, and the e-mail the bot asked for, reach the console; so does the earlier conversation', async () => {
      page = session.page;
      botId = await botIdOf(session.server, session.keys.botKey);
      c = consoleClient(session.server.client, await signIn(session.server.client, DEMO_OPERATOR_EMAIL, session.keys.operatorPassword));
      await page.goto(`${session.server.url}/demo?from=ad#top`);
      await w().live();
      await w().button('Track an order').click();
      await w().said('What is your order number? (six digits)');
      await w().type('123456');
      await w().said("May we e-mail you updates? Type your address, or 'no'.");
      await w().type('ann@example.com');
      await w().said('Thanks, we will write to ann@example.com.');
      const first = await w().userId();
      const visitor = await c.get(`${await conversation()}/visitor`);
      assert.equal(visitor.status, 200, visitor.text);
      assert.equal(visitor.body.Email, 'ann@example.com');
      assert.equal(visitor.body.PageUrl, `${session.server.url}/demo?from=ad`);
      assert.match(visitor.body.Browser, /^Chrome \d+$/);
      assert.equal(visitor.body.Language, 'en-US');
      assert.deepEqual(visitor.body.Earlier, []);
      // a new conversation in the same browser links the earlier one
      await page.evaluate(() => (window as unknown as { Colloquy: { reset(): Promise<void> } }).Colloquy.reset());
      await w().live();
      assert.notEqual(await w().userId(), first);
      const again = await c.get(`${await conversation()}/visitor`);
      assert.deepEqual(
        again.body.Earlier.map((e: { UserId: string }) => e.UserId),
        [first],
      );
    });

    test('waiting for a person, the visitor sees their place in the queue; their typing reaches the console', async () => {
      await w().button('Talk to a person').click();
      await page.getByRole('status').getByText('You are next in the queue.', { exact: true }).waitFor();
      await w().said('I am asking a colleague to join. Please hold on.');
      await w().inputDisabled(false);
      await shot(page, `widget-support-queue-${viewport.width}`);
      const read = await readEvents(`${session.server.url}/console/api/events`, {
        headers: { cookie: c.cookie },
        until: (events) => events.some((e) => e.Kind === 'visitorTyping'),
        opened: async () => {
          await w().input().focus();
          await page.keyboard.type('Hello?');
        },
      });
      assert.deepEqual(
        read.events.filter((e) => e.Kind === 'visitorTyping').map((e) => e.UserId),
        [await w().userId()],
      );
      // api.md rule 6b (issue 37 item 2): the bot does not answer a visitor waiting for a person; it
      // says its waiting text once, and the visitor's words wait for the operator.
      await page.keyboard.press('Enter');
      await w().said('A colleague will be with you shortly.');
      await page.keyboard.type('My rear brake squeaks, order under ann@example.com');
      await page.keyboard.press('Enter');
      await w().said('My rear brake squeaks, order under ann@example.com');
      const rows = (await w().transcript()).map((r) => r.text);
      assert.deepEqual(rows.slice(-4), ['I am asking a colleague to join. Please hold on.', 'Hello?', 'A colleague will be with you shortly.', 'My rear brake squeaks, order under ann@example.com']);
      await shot(page, `widget-support-waiting-${viewport.width}`);
    });

    test("the operator's typing and messages show their initials on a colour, then their picture once they set one", async () => {
      assert.equal((await c.post(`${await conversation()}/takeover`)).status, 200);
      await w().said('You are now talking with Demo operator.');
      assert.equal(await page.getByText('You are next in the queue.').isVisible(), false);
      assert.equal((await c.post(`${await conversation()}/typing`)).status, 200);
      await page.getByRole('status').getByText('Demo operator is typing…', { exact: true }).waitFor();
      assert.equal((await c.post(`${await conversation()}/messages`, { Text: 'Hi, how can I help?' })).status, 200);
      await w().said('Hi, how can I help?');
      const face = w().log().locator('.row.operator .who .face').last();
      assert.equal(await face.textContent(), 'DO');
      assert.notEqual(await face.evaluate((f) => getComputedStyle(f).backgroundColor), 'rgb(146, 64, 14)');
      await shot(page, `widget-support-initials-${viewport.width}`);

      const set = await session.server.client.call('PUT', '/console/api/me/avatar', { AvatarUrl: 'https://example.org/avatars/demo-operator.png' }, { headers: { cookie: c.cookie } });
      assert.equal(set.status, 200, set.text);
      await page.reload();
      await w().said('Hi, how can I help?');
      await w().live();
      const picture = w().log().locator('.row.operator .who img.face').last();
      assert.equal(await picture.getAttribute('src'), 'https://example.org/avatars/demo-operator.png');
      await page.waitForFunction(() => {
        const img = document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector<HTMLImageElement>('.row.operator .who img.face');
        return img?.complete && img.naturalWidth > 0;
      });
      await shot(page, `widget-support-avatar-${viewport.width}`);
      assert.deepEqual(await seriousViolations(page), []);
    });

    test('no page raised a script error', () => {
      assert.deepEqual(session.errors, []);
    });
  });
}
