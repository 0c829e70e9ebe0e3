// The web visitor in the console (issue 27, "Visitor context", "Typing both ways", "operator
// avatar"), in Debian's Chromium at 1280×800 and 390×844: the contact panel of a web conversation
// shows what the visitor's page said (address, browser, language) and their earlier conversations,
// which open from there; the visitor's typing is said under the transcript; an operator sets the
// picture visitors see from the Settings menu, by keyboard. axe-core finds nothing serious.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, consoleClient, signIn } from '../support/console-kit.js';
import { signedInPage, SIZES, type Size } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { setWeb, startWeb, web, webKeyOf } from '../support/web-kit.js';

const SHOTS = '/work/shots';
const CONTEXT = {
  Url: 'https://shop.example.org/kettles',
  Browser: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  Language: 'de-DE',
  Visitor: 'visitor-0000042',
};

describe('the web visitor in the console (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let key: string;
  let first: string;
  let second: string;

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client);
    key = await webKeyOf(server.client, tenant);
    await setWeb(server.client, tenant, { enabled: true, allowedOrigins: ['*'] });
    await addOperator(server.client, tenant.accountId, 'ann@example.org', undefined, 'Ann Lee');
    first = (await startWeb(server.client, key, { Context: { ...CONTEXT, Url: 'https://shop.example.org/' } })).UserId;
    second = (await startWeb(server.client, key, { Context: CONTEXT })).UserId;
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedIn(size: Size): Promise<Page> {
    const { page } = await signedInPage(browser, server, 'ann@example.org', size);
    await page.goto(`${server.url}/console`);
    return page;
  }
  const openByKeyboard = async (page: Page, userId: string) => {
    const entry = page.getByRole('navigation', { name: /^Conversations/ }).getByRole('button', { name: new RegExp(userId.slice(0, 8)) });
    await entry.focus();
    await page.keyboard.press('Enter');
    await page.locator('#conversation-meta').filter({ hasText: userId }).waitFor();
  };

  for (const size of SIZES) {
    test(`${size.name}: what the page said, earlier conversations, typing; accessible`, async () => {
      const page = await signedIn(size);
      await openByKeyboard(page, second);
      // The server passes one typing event a conversation every 2 s: sent again until one goes.
      for (let tries = 0; ; tries++) {
        const typed = await web(server.client, 'POST', key, 'typing', { UserId: second });
        assert.equal(typed.status, 200, typed.text);
        if (typed.body.Sent === true) break;
        assert.ok(tries < 10, 'a typing event went out');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await page.locator('#visitor-typing').getByText('The visitor is typing…').waitFor();
      if (size.name === 'phone') {
        // on a phone the contact panel opens on demand, from the More menu
        await page.locator('#more-menu summary').click();
        await page.locator('#contact-toggle').click();
      }
      const visitor = page.locator('#visitor');
      await visitor.getByText('https://shop.example.org/kettles', { exact: true }).waitFor();
      const described = await visitor.locator('dt').allTextContents();
      assert.deepEqual(described, ['Page', 'Browser', 'Language', 'Seen']);
      assert.deepEqual((await visitor.locator('dd').allTextContents()).slice(0, 3), ['https://shop.example.org/kettles', 'Chrome 131', 'de-DE']);
      assert.equal(await visitor.locator('.visitor-earlier button').count(), 1);
      await page.screenshot({ path: `${SHOTS}/console-visitor-${size.name}.png`, fullPage: size.name === 'phone' });
      assert.deepEqual(await seriousViolations(page), []);

      await visitor.locator('.visitor-earlier button').focus();
      await page.keyboard.press('Enter');
      await page.locator('#conversation-meta').filter({ hasText: first }).waitFor();
      await visitor.getByText('https://shop.example.org/', { exact: true }).waitFor();
      await page.context().close();
    });
  }

  test('a conversation of another channel has no visitor section', async () => {
    const chat = await server.client.post('/custom/chat', { UserId: 'custom-user-1' }, { token: tenant.botToken });
    assert.equal(chat.status, 200);
    const page = await signedIn(SIZES[0]);
    await page
      .getByRole('navigation', { name: /^Conversations/ })
      .getByRole('button', { name: /custom-user-1/ })
      .click();
    await page.locator('#conversation-title').filter({ hasText: 'custom-user-1' }).waitFor();
    await page.locator('#contact-body dt').first().waitFor();
    assert.equal(await page.locator('#visitor').isHidden(), true);
    await page.context().close();
  });

  test('the picture visitors see is set from the Settings menu by keyboard, and taken away', async () => {
    const page = await signedIn(SIZES[1]);
    const summary = page.locator('#account-menu summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.locator('#avatar-manage').focus();
    await page.keyboard.press('Enter');
    await page.locator('#avatar-url').waitFor();
    await page.keyboard.type('javascript:alert(1)');
    await page.keyboard.press('Enter');
    // the browser's own check of a URL field lets this through; the server refuses it
    await page
      .locator('#avatar-error')
      .filter({ hasText: /AvatarUrl/ })
      .waitFor();
    await page.locator('#avatar-url').fill('https://pics.example.org/ann.png');
    await page.keyboard.press('Enter');
    await page.locator('#status').getByText('Your picture is saved; visitors see it beside your messages.').waitFor();
    assert.equal(await page.locator('#avatar-dialog').isVisible(), false);
    const api = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
    assert.deepEqual((await api.get('/me/avatar')).body, { AvatarUrl: 'https://pics.example.org/ann.png' });
    await page.screenshot({ path: `${SHOTS}/console-avatar-phone.png` });
    await summary.click();
    await page.locator('#avatar-manage').click();
    assert.equal(await page.locator('#avatar-url').inputValue(), 'https://pics.example.org/ann.png');
    await page.locator('#avatar-url').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#status').getByText('Visitors see your initials again.').waitFor();
    assert.deepEqual((await api.get('/me/avatar')).body, { AvatarUrl: null });
    await page.context().close();
  });
});
