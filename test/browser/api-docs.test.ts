// /docs in Chromium (issue 27, item 13): Colloquy's title and logo instead of Swagger's, a page
// made for a phone's width (readable text, no sideways scrolling of the page), a filter over the
// operations, and links to the guides (docs/*.md, served as pages under /docs/guides/). axe-core
// finds nothing serious on /docs nor on a guide, at 1280×800 and on a 390×844 phone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800, isMobile: false },
  // a phone: the page is laid out at the width it asks for with its viewport tag, 980 px without one
  { name: 'phone', width: 390, height: 844, isMobile: true },
];

describe('/docs (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startTestServer('sqlite');
    browser = await launchChromium();
    fs.mkdirSync('/work/shots', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const contextAt = (size: (typeof SIZES)[number]): Promise<BrowserContext> =>
    browser.newContext({ viewport: { width: size.width, height: size.height }, isMobile: size.isMobile, hasTouch: size.isMobile, deviceScaleFactor: size.isMobile ? 2 : 1 });

  for (const size of SIZES) {
    test(`${size.name}: Colloquy's title and logo, readable at the device's width, a filter, links to the guides`, async () => {
      const context = await contextAt(size);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('console', (m) => /Content Security Policy/i.test(m.text()) && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/docs`);
      await page.locator('.opblock-tag').first().waitFor();

      assert.equal(await page.title(), 'Colloquy API');
      const logo = page.getByRole('link', { name: 'Colloquy API documentation' });
      assert.equal(await logo.getAttribute('href'), '/docs');
      assert.equal(
        await page.locator('.topbar svg, .topbar img').evaluateAll((all) => all.filter((e) => (e as HTMLElement).offsetParent !== null && !e.closest('[data-colloquy]')).length),
        0,
        'no stock Swagger logo',
      );
      assert.equal(await page.getByText(/swagger/i).count(), 0, 'no Swagger branding in the page text');
      const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
      assert.match(icon ?? '', /colloquy/);

      // laid out at the device's width, text at least 12 px, nothing wider than the window
      const layout = await page.evaluate(() => ({
        width: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        path: parseFloat(getComputedStyle(document.querySelector('.opblock-summary-path, .opblock-tag')!).fontSize),
      }));
      assert.equal(layout.width, size.width);
      assert.ok(layout.scroll <= size.width, `no sideways scrolling (${layout.scroll} px)`);
      assert.ok(layout.path >= 12, `operation text is ${layout.path} px`);

      // the filter: operations by tag
      const filter = page.getByRole('textbox', { name: 'Filter operations by tag' });
      await filter.fill('analytics');
      await page.waitForFunction(() => document.querySelectorAll('.opblock-tag').length === 1);
      assert.deepEqual(await page.locator('.opblock-tag').evaluateAll((tags) => tags.map((t) => t.getAttribute('data-tag'))), ['analytics']);
      await filter.fill('');

      // links to the guides, and a guide itself
      const guides = page.getByRole('link', { name: 'Analytics and the flow picture' });
      assert.equal(await guides.getAttribute('href'), '/docs/guides/analytics');
      await page.screenshot({ path: `/work/shots/docs-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), []);
      await guides.click();
      await page.getByRole('heading', { level: 1, name: 'Analytics and the flow picture' }).waitFor();
      assert.equal(await page.title(), 'Analytics and the flow picture — Colloquy guides');
      const guide = await page.evaluate(() => ({
        width: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        text: parseFloat(getComputedStyle(document.querySelector('main p')!).fontSize),
      }));
      assert.equal(guide.width, size.width);
      assert.ok(guide.scroll <= size.width, `the guide does not scroll sideways (${guide.scroll} px)`);
      assert.ok(guide.text >= 15, `guide text is ${guide.text} px`);
      await page.screenshot({ path: `/work/shots/docs-guide-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
