// The analytics page (/console/analytics, issue 15 "Look, not read") in Debian's Chromium with its
// real CSP: a signed-in operator sees the scripted conversations (test/support/analytics-kit.ts)
// as four charts and the live flow as a picture with one box per behaviour and interaction; no
// CSP violation, no sideways scrolling on a phone, and axe-core finds no serious or critical
// violation. Screenshots: /tmp/shots/an-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { clockFrom } from '../../src/shared/clock.js';
import { analyticsBot, DAY_A, DAY_C, runScript } from '../support/analytics-kit.js';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, botIdOf, SESSION_COOKIE, signIn } from '../support/console-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];


describe('the analytics page (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let botId: string;
  let now = Date.parse(`${DAY_A}T08:00:00Z`);

  before(async () => {
    server = await startTestServer('sqlite', { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
    tenant = await createTenant(server.client, analyticsBot());
    botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'ann@example.org');
    await runScript(server, tenant, 'ann@example.org', botId, (ms) => (now = ms));
    browser = await launchChromium();
    fs.mkdirSync('/tmp/shots', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAt(size: (typeof SIZES)[number], signedIn = true): Promise<{ page: Page; cspViolations: string[] }> {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    if (signedIn) {
      const cookie = (await signIn(server.client, 'ann@example.org')).slice(SESSION_COOKIE.length + 1);
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: `${server.url}/console` }]);
    }
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => cspViolations.push(`page error: ${error.message}`));
    return { page, cspViolations };
  }

  for (const size of SIZES) {
    test(`${size.name}: charts of the period and the flow picture, within the window, accessible`, async () => {
      const { page, cspViolations } = await pageAt(size);
      await page.goto(`${server.url}/console/analytics?bot=${botId}&from=${DAY_A}&to=${DAY_C}`);
      await page.locator('#flow svg g.node').first().waitFor();
      assert.equal(await page.getByRole('status').textContent(), `Analytics bot, ${DAY_A} to ${DAY_C}.`);
      assert.equal(await page.locator('#total-conversations').textContent(), '6');
      assert.equal(await page.locator('#total-messages').textContent(), '23');
      assert.equal(await page.locator('#total-handovers').textContent(), '2');
      assert.equal(await page.locator('#total-fallback').textContent(), '37.5%');

      // Four charts drawn by Chart.js (it sizes each canvas to its box), each named by its numbers.
      // (the knowledge card has no chart: this bot has no knowledge, so its card says none was asked)
      assert.equal(await page.locator('#knowledge-empty').textContent(), "No question was asked of the bot's knowledge in this period.");
      assert.equal(await page.locator('#knowledge-chart').isHidden(), true);
      const charts = await page.locator('canvas:visible').evaluateAll((canvases) =>
        canvases.map((c) => ({ id: c.id, width: (c as HTMLCanvasElement).width, label: c.getAttribute('aria-label') })),
      );
      assert.deepEqual(charts.map((c) => c.id), ['chart-conversations', 'chart-messages', 'chart-fallback', 'chart-dropoff']);
      for (const chart of charts) assert.ok(chart.width > 100, `${chart.id} drawn (${chart.width} px)`);
      assert.match(charts[0].label!, /6 conversations started and 2 hand-overs/);
      assert.match(charts[1].label!, /8 user, 14 bot and 1 operator messages/);
      assert.match(charts[2].label!, /3 of 8 user messages \(37\.5%\)/);
      assert.match(charts[3].label!, /Help › Ask \(2\), Main › Sorry \(1\), Orders › Done \(1\), Orders › Number \(1\)/);
      // The chart really has pixels: the canvas is not blank.
      const inked = await page.locator('#chart-messages').evaluate((c) => {
        const canvas = c as HTMLCanvasElement;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return n;
      });
      assert.ok(inked > 1000, `the messages chart has ${inked} painted pixels`);

      // The flow: 3 behaviours and 5 interactions, 8 paths, laid out without overlapping boxes.
      assert.equal(await page.locator('#flow svg g.node').count(), 8);
      assert.equal(await page.locator('#flow svg g.node-behaviour').count(), 3);
      assert.equal(await page.locator('#flow svg g.edge').count(), 8);
      assert.deepEqual(await page.locator('#flow svg .edge-label').allTextContents(), ['Order', 'Help', '"human"']);
      const boxes = await page.locator('#flow svg g.node rect').evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().toJSON() as DOMRect));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          assert.ok(apart, `nodes ${i} and ${j} do not overlap`);
        }
      }

      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= size.width, 'no sideways scrolling');
      await page.screenshot({ path: `/tmp/shots/an-${size.name}.png` });
      await page.screenshot({ path: `/tmp/shots/an-${size.name}-full.png`, fullPage: true });
      await page.locator('#flow').screenshot({ path: `/tmp/shots/an-${size.name}-flow.png` });
      assert.deepEqual(cspViolations, []);
      assert.deepEqual(await seriousViolations(page), []);
      await page.context().close();
    });
  }

  test('a period where no conversation stopped says so instead of drawing an empty chart; presets change the period', async () => {
    const { page, cspViolations } = await pageAt(SIZES[0]);
    await page.goto(`${server.url}/console/analytics?bot=${botId}&from=${DAY_C}&to=${DAY_C}`);
    await page.getByText('No conversation has stopped in this period yet.').waitFor();
    assert.equal(await page.locator('#dropoff-chart').isHidden(), true);
    assert.equal(await page.locator('#total-conversations').textContent(), '1');
    await page.getByRole('button', { name: '7 days' }).click();
    const url = new URL(page.url());
    const days = (Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)) / 86_400_000 + 1;
    assert.equal(days, 7);
    assert.deepEqual(cspViolations, []);
    await page.context().close();
  });

  test('signed out: the page says to sign in, and shows no data', async () => {
    const { page, cspViolations } = await pageAt(SIZES[0], false);
    await page.goto(`${server.url}/console/analytics`);
    await page.getByRole('heading', { name: 'Sign in first' }).waitFor();
    assert.equal(await page.locator('#report').isHidden(), true);
    assert.equal(await page.getByRole('link', { name: 'Sign in to the console' }).getAttribute('href'), '/console');
    await page.screenshot({ path: '/tmp/shots/an-signed-out.png' });
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });
});
