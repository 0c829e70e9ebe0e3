// The links between the console's pages (ui/shared/console-nav.ts) in Debian's Chromium: every
// page an admin opens beside the conversations list (analytics, designer, knowledge, broadcasts)
// shows the same six links (the team last, with no bot) in the same order, marks its own as the current page, and carries the
// chosen bot to the others; a keyboard user moves from one page to the next with the same bot;
// an agent is offered the conversations only. Each header at desktop and phone sizes: no
// sideways scrolling, no serious axe-core violation. Screenshots: /work/shots/nav-*.png.
// Issue 37: the same header on all six pages (the conversations and the team too): the links and
// a sign-out button that signs out, on one line at 1280 px; an empty inbox says how conversations
// come (the designer's Install tab). Screenshots: /work/shots/inbox/header-*.png, inbox-empty-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { pageAt, SHOTS, SIZES } from '../support/analytics-page-kit.js';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { promoBot } from '../support/broadcast-kit.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const [DESKTOP] = SIZES;
const PAGES = ['analytics', 'designer', 'knowledge', 'broadcasts'] as const;
const CONSOLE_LABELS = { conversations: 'Conversations', analytics: 'Analytics', designer: 'Designer', knowledge: 'Knowledge', broadcasts: 'Broadcasts', team: 'Team', audit: 'Audit' };

describe('the console pages link to each other (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let botId: string;

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client, promoBot());
    botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'ann@example.org');
    await addOperator(server.client, tenant.accountId, 'al@example.org', undefined, 'Al Agent', 'agent');
    browser = await launchChromium();
    fs.mkdirSync(`${SHOTS}/inbox`, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The header's links as [label, path and query, current?], once the bot chosen has reached them. */
  async function links(page: Page, withBot: boolean): Promise<string[][]> {
    const nav = page.getByRole('navigation', { name: 'Console' });
    if (withBot) await nav.locator(`a[href*="bot=${botId}"]`).first().waitFor();
    // an admin's Audit link comes once the page knows the role (issue 42)
    if (withBot) await nav.getByRole('link', { name: 'Audit' }).waitFor();
    return nav.locator('a').evaluateAll((anchors) => anchors.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? '', a.getAttribute('aria-current') ?? '']));
  }

  const expected = (current: string) => [
    ['Conversations', '/console', ''],
    ['Analytics', `/console/analytics?bot=${botId}`, current === 'analytics' ? 'page' : ''],
    ['Designer', `/console/designer?bot=${botId}`, current === 'designer' ? 'page' : ''],
    ['Knowledge', `/console/knowledge?bot=${botId}`, current === 'knowledge' ? 'page' : ''],
    ['Broadcasts', `/console/broadcasts?bot=${botId}`, current === 'broadcasts' ? 'page' : ''],
    ['Team', '/console/team', ''],
    // issue 42: the audit log, for admins (ann is one)
    ['Audit', '/console/audit', ''],
  ];

  for (const name of PAGES) {
    test(`${name}: the six links, its own marked current, the bot carried; desktop and phone`, async () => {
      for (const size of SIZES) {
        const { page, errors } = await pageAt(browser, server, size);
        await page.goto(`${server.url}/console/${name}?bot=${botId}`);
        assert.deepEqual(await links(page, true), expected(name), size.name);
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, `${size.name}: no sideways scrolling`);
        await page.locator('header.top').screenshot({ path: `${SHOTS}/nav-${name}-${size.name}.png` });
        assert.deepEqual(await seriousViolations(page), [], size.name);
        assert.deepEqual(errors, [], size.name);
        await page.context().close();
      }
    });
  }

  const EVERY_PAGE = [
    ['conversations', '/console'],
    ['analytics', '/console/analytics'],
    ['designer', '/console/designer'],
    ['knowledge', '/console/knowledge'],
    ['broadcasts', '/console/broadcasts'],
    ['team', '/console/team'],
    ['audit', '/console/audit'],
  ] as const;

  test('issue 37: one header on every page, the same links and Sign out, on one line at 1280 px', async () => {
    for (const size of SIZES) {
      const { page, errors } = await pageAt(browser, server, size);
      for (const [name, path] of EVERY_PAGE) {
        await page.goto(`${server.url}${path}`);
        const header = page.locator('header.top');
        const nav = header.getByRole('navigation', { name: 'Console' });
        await nav.getByRole('link', { name: 'Audit' }).waitFor();
        await header.getByRole('button', { name: 'Sign out' }).waitFor();
        assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Conversations', 'Analytics', 'Designer', 'Knowledge', 'Broadcasts', 'Team', 'Audit'], `${name} ${size.name}`);
        assert.equal(await nav.locator('[aria-current="page"]').textContent(), CONSOLE_LABELS[name], `${name} ${size.name}`);
        if (size === DESKTOP) {
          // one line: every item of the header (title, links, buttons) on the same row
          const rows = await header.evaluate((h) => {
            const items = [...h.querySelectorAll('h1, a, button, summary')].filter((e) => (e as HTMLElement).offsetParent !== null && !e.closest('.menu-body'));
            const tops = items.map((e) => e.getBoundingClientRect().top);
            return { spread: Math.max(...tops) - Math.min(...tops), height: h.getBoundingClientRect().height };
          });
          assert.ok(rows.spread <= 8 && rows.height <= 64, `${name}: ${JSON.stringify(rows)}`);
        }
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, `${name} ${size.name}: no sideways scrolling`);
        await header.screenshot({ path: `${SHOTS}/inbox/header-${name}-${size.name}.png` });
        assert.deepEqual(await seriousViolations(page), [], `${name} ${size.name}`);
      }
      assert.deepEqual(errors, [], size.name);
      await page.context().close();
    }
  });

  test('issue 37: Sign out on any page ends the session and leads to the sign-in form', async () => {
    const { page } = await pageAt(browser, server, DESKTOP);
    await page.goto(`${server.url}/console/knowledge?bot=${botId}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/console`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => fetch('/console/api/me').then((r) => r.status)), 401);
    await page.context().close();
  });

  test('issue 37: an empty inbox says how conversations come, and leads to the Install tab', async () => {
    for (const size of SIZES) {
      const { page, errors } = await pageAt(browser, server, size);
      await page.goto(`${server.url}/console`);
      const empty = page.locator('#list-empty');
      await empty.getByText('No conversations yet.').waitFor();
      assert.match(await empty.innerText(), /people write to your bot/);
      await page.screenshot({ path: `${SHOTS}/inbox/inbox-empty-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), [], size.name);
      await empty.getByRole('link', { name: /Install/ }).click();
      await page.getByRole('tab', { name: 'Install', selected: true }).waitFor();
      assert.deepEqual(errors, [], size.name);
      await page.context().close();
    }
  });

  test('by keyboard: from the knowledge page to the broadcasts page of the same bot', async () => {
    const { page, errors } = await pageAt(browser, server, DESKTOP);
    await page.goto(`${server.url}/console/knowledge?bot=${botId}`);
    await links(page, true);
    let focused = '';
    for (let presses = 0; presses < 10 && focused !== 'Broadcasts'; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    assert.equal(focused, 'Broadcasts', 'Tab reaches the link');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/console/broadcasts?bot=${botId}`);
    assert.deepEqual(await links(page, true), expected('broadcasts'));
    assert.equal(await page.locator('#bot').inputValue(), botId, 'the same bot is chosen');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('an agent is offered the conversations only', async () => {
    const { page } = await pageAt(browser, server, DESKTOP, 'al@example.org');
    for (const name of PAGES) {
      await page.goto(`${server.url}/console/${name}?bot=${botId}`);
      // the links are drawn for any role first, then again once the page knows it is an agent's
      await page.waitForFunction(() => document.querySelectorAll('nav[aria-label="Console"] a').length === 1);
      assert.deepEqual(await links(page, false), [['Conversations', '/console', '']], name);
      await page.screenshot({ path: `${SHOTS}/nav-agent-${name}.png` });
    }
    // the pages that refuse an agent say why and show no controls
    await page.getByText('Your role (agent) opens conversations only. Broadcasts are for designers and admins').waitFor();
    assert.equal(await page.locator('#bot').isVisible(), false, 'broadcasts: no bot to pick');
    await page.goto(`${server.url}/console/analytics?bot=${botId}`);
    await page.getByText('Your role (agent) opens conversations only. Analytics are for designers and admins').waitFor();
    assert.equal(await page.locator('#period').isVisible(), false, 'analytics: no period to pick');
    await page.context().close();
  });
});
