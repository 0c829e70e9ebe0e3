// Issue 27 item 6, the flow picture of the analytics page in Chromium: on a 390×844 phone it is
// fitted to its box's width (it was 1,268 px wide in a 330 px box) and can be zoomed and panned;
// its interactions are grouped by behaviour; the hand-over to a person is drawn; no path runs
// through a box other than its own ends; each label sits on its own path. Screenshots:
// /work/shots/console-flow-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { clockFrom } from '../../src/shared/clock.js';
import { analyticsBot, DAY_A, runScript } from '../support/analytics-kit.js';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { signedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('the flow picture (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let now = Date.parse(`${DAY_A}T08:00:00Z`);

  before(async () => {
    server = await startTestServer('sqlite', { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
    tenant = await createTenant(server.client, analyticsBot());
    const botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'ann@example.org');
    await runScript(server, tenant, 'ann@example.org', botId, (ms) => (now = ms));
    browser = await launchChromium();
    fs.mkdirSync('/work/shots', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function flowPage(width: number, height: number): Promise<Page> {
    const { page } = await signedInPage(browser, server, 'ann@example.org', { width, height });
    await page.goto(`${server.url}/console/analytics`);
    await page.locator('#flow svg g.node').first().waitFor();
    return page;
  }

  /** Where the picture breaks the rules: paths through other boxes, labels away from their path. */
  // (A string: functions compiled by tsx carry helpers the page does not have.)
  const faults = (page: Page): Promise<string[]> =>
    page.evaluate(`(() => {
      const found = [];
      const svg = document.querySelector('#flow svg');
      const boxes = [...svg.querySelectorAll('g.node')].map((g) => ({ name: g.querySelector('title').textContent, r: g.querySelector('rect').getBoundingClientRect() }));
      const inside = (p, r, m) => p.x > r.left + m && p.x < r.right - m && p.y > r.top + m && p.y < r.bottom - m;
      for (const edge of svg.querySelectorAll('g.edge')) {
        const path = edge.querySelector('path');
        const length = path.getTotalLength();
        const ctm = path.getScreenCTM();
        const at = (l) => new DOMPoint(path.getPointAtLength(l).x, path.getPointAtLength(l).y).matrixTransform(ctm);
        const start = at(0);
        const end = at(length);
        for (let l = 0; l <= length; l += 2) {
          const p = at(l);
          for (const b of boxes) {
            const own = inside(start, b.r, -3) || inside(end, b.r, -3);
            if (!own && inside(p, b.r, 2)) found.push('a path runs through ' + b.name);
          }
        }
        const label = edge.querySelector('.edge-label');
        if (label) {
          const r = label.getBoundingClientRect();
          const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
          let nearest = Infinity;
          for (let l = 0; l <= length; l += 1) nearest = Math.min(nearest, Math.hypot(at(l).x - cx, at(l).y - cy));
          if (nearest > 8) found.push('label ' + label.textContent + ' is ' + nearest.toFixed(0) + ' px from its path');
        }
      }
      return [...new Set(found)];
    })()`);

  test('phone: fitted to the width, zoomed and panned with buttons and keys', async () => {
    const page = await flowPage(390, 844);
    const fitted = await page.evaluate(() => ({ svg: document.querySelector('#flow svg')!.getBoundingClientRect().width, box: document.getElementById('flow')!.clientWidth }));
    assert.ok(fitted.svg <= fitted.box, `the picture is ${fitted.svg} px wide in a ${fitted.box} px box`);
    await page.locator('#flow').screenshot({ path: '/work/shots/console-flow-phone.png' });
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await page.evaluate(() => document.querySelector('#flow svg')!.getBoundingClientRect().width);
    assert.ok(zoomed > fitted.svg * 1.5, `zoomed in to ${zoomed} px`);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Zoom in', 'the focus stays on the button');
    const flow = page.locator('#flow');
    await flow.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // the keys scroll the frame; the browser applies it after the key event (later on a loaded machine)
    await page.waitForFunction(() => document.getElementById('flow')!.scrollLeft > 0, undefined, { timeout: 5000 }).catch(() => undefined);
    assert.ok((await flow.evaluate((f) => f.scrollLeft)) > 0, 'the arrow keys pan');
    await page.keyboard.press('-');
    assert.ok((await page.evaluate(() => document.querySelector('#flow svg')!.getBoundingClientRect().width)) < zoomed, '- zooms out');
    await page.getByRole('button', { name: 'Fit to width' }).click();
    assert.equal(Math.round(await page.evaluate(() => document.querySelector('#flow svg')!.getBoundingClientRect().width)), Math.round(fitted.svg));
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  test('desktop: grouped by behaviour, the hand-over drawn, no path through a box, labels on their paths', async () => {
    const page = await flowPage(1280, 800);
    const groups = await page.locator('#flow svg g.group title').allTextContents();
    assert.deepEqual(groups.sort(), ['Behaviour Help', 'Behaviour Main', 'Behaviour Orders', 'Behaviour Rate']);
    // each interaction lies inside its behaviour's box
    const outside = await page.evaluate(() => {
      const bad: string[] = [];
      const groupBoxes = new Map([...document.querySelectorAll('#flow svg g.group')].map((g) => [g.querySelector('title')!.textContent!.slice(10), g.querySelector('rect')!.getBoundingClientRect()]));
      for (const g of document.querySelectorAll('#flow svg g.node-interaction')) {
        const behaviour = /^Interaction (.+) › /.exec(g.querySelector('title')!.textContent!)![1]!;
        const r = g.querySelector('rect')!.getBoundingClientRect();
        const box = groupBoxes.get(behaviour)!;
        if (r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom) bad.push(behaviour);
      }
      return bad;
    });
    assert.deepEqual(outside, []);
    await page.locator('#flow svg g.node-handover .node-name').getByText('A person', { exact: true }).waitFor();
    assert.equal(await page.locator('#flow svg g.edge-handover').count(), 1);
    assert.match((await page.locator('#flow svg g.node-interaction title').filter({ hasText: 'Help › Ask' }).textContent()) ?? '', /hands over to a person/);
    await page.locator('#flow').screenshot({ path: '/work/shots/console-flow-desktop.png' });
    assert.deepEqual(await faults(page), []);
    await page.context().close();
  });
});
