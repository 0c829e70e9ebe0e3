// The broadcasts page (/console/broadcasts) in Debian's Chromium with its real CSP: a signed-in
// admin previews an audience, creates a broadcast and sees its counts move live, schedules one
// for later and cancels it, by keyboard; no CSP violation, no sideways scrolling on a phone, and
// axe-core finds no serious or critical violation. Screenshots: /work/shots/bcast-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { promoBot } from '../support/broadcast-kit.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator, botIdOf, SESSION_COOKIE, signIn } from '../support/console-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SHOTS = '/work/shots';
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

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
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAt(size: (typeof SIZES)[number]): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const cookie = (await signIn(server.client, 'ann@example.org')).slice(SESSION_COOKIE.length + 1);
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: `${server.url}/console` }]);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return { page, problems };
  }

  for (const size of SIZES) {
    test(`${size.name}: preview, create, live counts, schedule and cancel, by keyboard; accessible`, async () => {
      const { page, problems } = await pageAt(size);
      await page.goto(`${server.url}/console/broadcasts?bot=${botId}`);
      await page.locator('#behaviour option', { hasText: 'Promo' }).waitFor({ state: 'attached' });
      await page.locator('#behaviour').selectOption('Promo');
      await page.locator('#tags').fill('vip');
      await page.locator('#preview').focus();
      await page.keyboard.press('Enter');
      await page.locator('#preview-out', { hasText: '2 conversations' }).waitFor();

      await page.locator('#name').fill(`Sale ${size.name}`);
      await page.locator('#submit').focus();
      await page.keyboard.press('Enter');
      const sale = page.locator('.item', { hasText: `Sale ${size.name}` });
      await sale.locator('.badge', { hasText: 'done' }).waitFor();
      assert.equal(await sale.locator('.counts div', { hasText: 'Sent' }).locator('dd').textContent(), '2', 'the counts came in live');
      assert.equal(await sale.locator('.counts div', { hasText: 'Audience' }).locator('dd').textContent(), '2');

      await page.locator('#name').fill(`Later ${size.name}`);
      // within the 10 years ahead that At may be (docs/limits.md)
      await page.locator('#at').fill(`${new Date().getFullYear() + 1}-01-01T09:00`);
      await page.locator('#repeat').selectOption('week');
      await page.locator('#submit').click();
      const later = page.locator('.item', { hasText: `Later ${size.name}` });
      await later.locator('.badge', { hasText: 'scheduled' }).waitFor();
      assert.match((await later.locator('.when').textContent()) ?? '', /every week from/);

      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= size.width, 'no sideways scrolling');
      await page.screenshot({ path: `${SHOTS}/bcast-${size.name}.png`, fullPage: true });
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
    const context = await browser.newContext();
    const cookie = (await signIn(server.client, 'agent@example.org')).slice(SESSION_COOKIE.length + 1);
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: `${server.url}/console` }]);
    const agentPage = await context.newPage();
    await agentPage.goto(`${server.url}/console`);
    await agentPage.locator('#who-name').filter({ hasText: 'An Agent' }).waitFor();
    assert.equal(await agentPage.locator('#broadcasts-link').isHidden(), true);
    await context.close();
  });

  test('signed out: the page says to sign in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/console/broadcasts`);
    await page.getByText('Sign in first').waitFor();
    await context.close();
  });
});
