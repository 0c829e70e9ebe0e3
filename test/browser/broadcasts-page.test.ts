// The broadcasts page (/console/broadcasts) in Debian's Chromium with its real CSP: a signed-in
// admin writes a message with a button (issue 37 item 8), sees the audience count and a preview of
// the message as the widget shows it; Send asks "Send to N conversations now?" in a dialog:
// cancelling sends nothing, confirming sends, and the status shown is the broadcast's own until it
// is done (web deliveries Delivered). Only the bot's connected channels are offered. Scheduling
// asks "Schedule for … to N conversations?"; the scheduled one is cancelled. By keyboard; no CSP
// violation, no sideways scrolling on a phone; axe-core clean. Screenshots: /work/shots/bcast/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { promoBot } from '../support/broadcast-kit.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { signedInPage, SIZES, type Size } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { setWeb, startWeb, webKeyOf } from '../support/web-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SHOTS = '/work/shots/bcast';

describe('the broadcasts page (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let botId: string;

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client, promoBot());
    botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'ann@example.org');
    for (const tags of [['vip'], ['vip'], []]) await chatOk(server, tenant.botToken, { UserId: uid('page'), Tags: tags });
    await setWeb(server.client, tenant, { enabled: true, allowedOrigins: ['*'] });
    const key = await webKeyOf(server.client, tenant);
    for (let i = 0; i < 2; i++) await startWeb(server.client, key);
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAt(size: Size): Promise<{ page: Page; problems: string[] }> {
    const { page, errors: problems } = await signedInPage(browser, server, 'ann@example.org', size);
    return { page, problems };
  }

  const broadcastNames = async () => ((await server.client.get(`/bots/${tenant.botKey}/broadcasts`, { token: tenant.accountToken })).body.Result as Array<{ Name: string }>).map((b) => b.Name);

  for (const size of SIZES) {
    test(`${size.name}: a message with a button, its count and preview; Send asks first (cancel sends nothing, confirm sends); the real status to the end; schedule asks too; by keyboard; accessible`, async () => {
      const { page, problems } = await pageAt(size);
      await page.goto(`${server.url}/console/broadcasts?bot=${botId}`);
      const web = page.getByRole('checkbox', { name: 'Website widget' });
      await web.waitFor();
      assert.deepEqual(
        await page.locator('input[name=channel]').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value)),
        ['web'],
        'only connected channels: web (the bot has no webhook and no platform)',
      );

      const name = `Sale ${size.name}`;
      await page.locator('#name').fill(name);
      await page.locator('#text').fill('Hi {{first_name|there}}, our sale starts today.');
      await page.locator('#add-button').focus();
      await page.keyboard.press('Enter');
      await page.keyboard.type('Show me');
      await page.locator('.button-behaviour').selectOption('Promo');
      assert.equal(await page.locator('#message-preview .bubble').textContent(), 'Hi there, our sale starts today.');
      assert.deepEqual(await page.locator('#message-preview .chip').allTextContents(), ['Show me']);
      await web.focus();
      await page.keyboard.press('Space');
      await page.locator('#audience-count', { hasText: /^2 conversations$/ }).waitFor();
      await page.screenshot({ path: `${SHOTS}/${size.name}-compose.png`, fullPage: true });

      await page.locator('#submit').focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      assert.equal(await page.locator('#confirm-question').textContent(), 'Send to 2 conversations now?');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm-cancel', 'the dialog opens on Cancel');
      await page.screenshot({ path: `${SHOTS}/${size.name}-confirm.png` });
      assert.deepEqual(await seriousViolations(page), []);
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await page.locator('#status').textContent(), 'Nothing was sent.');
      assert.equal((await broadcastNames()).includes(name), false, 'cancel created nothing');

      await page.locator('#submit').focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Send now');
      await page.keyboard.press('Enter');
      await page.locator('#status', { hasText: new RegExp(`^${name}: done · 2 of 2 sent, 2 delivered$`) }).waitFor();
      const sale = page.locator('.item', { hasText: name });
      await sale.locator('.badge', { hasText: 'done' }).waitFor();
      assert.equal(await sale.locator('.counts div', { hasText: 'Delivered' }).locator('dd').textContent(), '2');
      assert.equal(await page.locator('#text').inputValue(), '', 'the editor is empty for the next one');

      await page.locator('#name').fill(`Later ${size.name}`);
      await page.locator('input[name=what][value=behaviour]').check();
      await page.locator('#behaviour').selectOption('Promo');
      // within the 10 years ahead that At may be (docs/limits.md)
      await page.locator('#at').fill(`${new Date().getFullYear() + 1}-01-01T09:00`);
      await page.locator('#repeat').selectOption('week');
      await page.locator('#submit').click();
      await dialog.waitFor();
      assert.match((await page.locator('#confirm-question').textContent()) ?? '', /^Schedule for .+ to 2 conversations\?$/);
      await page.locator('#confirm-ok').click();
      const later = page.locator('.item', { hasText: `Later ${size.name}` });
      await later.locator('.badge', { hasText: 'scheduled' }).waitFor();
      await page.locator('#status', { hasText: new RegExp(`^Later ${size.name}: scheduled for `) }).waitFor();
      assert.match((await later.locator('.when').textContent()) ?? '', /every week from/);

      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= size.width, 'no sideways scrolling');
      await page.screenshot({ path: `${SHOTS}/${size.name}-sent.png`, fullPage: true });
      assert.deepEqual(await seriousViolations(page), []);

      await later.getByRole('button', { name: `Cancel Later ${size.name}` }).focus();
      await page.keyboard.press('Enter');
      await later.locator('.badge', { hasText: 'cancelled' }).waitFor();
      assert.equal(await page.locator('#status').textContent(), `Later ${size.name} cancelled.`);
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }

  test("the console's nav leads an admin here; an agent is not offered the link", async () => {
    const { page } = await pageAt(SIZES[0]);
    await page.goto(`${server.url}/console`);
    await page.locator('#broadcasts-link').click();
    await page.waitForURL(`${server.url}/console/broadcasts`);
    await page.locator('h2', { hasText: 'New broadcast' }).waitFor();
    await page.context().close();
    await addOperator(server.client, tenant.accountId, 'agent@example.org', undefined, 'An Agent', 'agent');
    const { page: agentPage } = await signedInPage(browser, server, 'agent@example.org');
    await agentPage.goto(`${server.url}/console`);
    await agentPage.locator('#who-name').filter({ hasText: 'An Agent' }).waitFor();
    assert.equal(await agentPage.locator('#broadcasts-link').isHidden(), true);
    await agentPage.context().close();
  });

  test('signed out: the page says to sign in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/console/broadcasts`);
    await page.getByText('Sign in first').waitFor();
    await context.close();
  });
});
