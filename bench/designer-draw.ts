// npm run bench:designer: how fast the designer draws and pans a bot of 200 interactions (4
// behaviours of 50, 400 paths) in Debian's Chromium at 1280x800, on SQLite, beside a bot of 4
// (what the page costs whatever the bot). Time to first draw is
// measured in the page from the navigation's start to the frame that paints the first interaction
// node, and all 200 (median of 5 loads after one warm-up that also builds the bundle; the machine's
// other work makes single runs vary, hence the runs are printed); panning is 60 mouse moves
// dragging the canvas, with the intervals between animation frames recorded meanwhile.
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';
import { addOperator, botIdOf } from '../test/support/console-kit.js';
import { largeBot, pageAs } from '../test/support/designer-kit.js';
import { createTenant } from '../test/support/fixtures.js';
import { startTestServer } from '../test/support/server.js';

const LOADS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const server = await startTestServer('sqlite');
const browser = await launchChromium();

/** Loads of the designer on a bot of `size` interactions: when its nodes were painted, and frames while panning. */
async function measure(size: number) {
  const tenant = await createTenant(server.client, largeBot(size, 4));
  const botId = await botIdOf(server, tenant.botKey);
  const email = `bench-${size}@example.org`;
  await addOperator(server.client, tenant.accountId, email, undefined, 'Bench', 'designer');
  const first: number[] = [];
  const all: number[] = [];
  let frames: number[] = [];
  for (let run = 0; run <= LOADS; run++) {
    const { page } = await pageAs(browser, server, email);
    // Noted in the page as the nodes are inserted, at the next animation frame (the paint): a
    // script given as text, which runs before the page's own and is not subject to its CSP.
    await page.addInitScript(`window.draw_ = {};
      new MutationObserver(() => {
        const n = document.querySelectorAll('.react-flow__node-step').length;
        if (n > 0 && !window.draw_.asked1) { window.draw_.asked1 = true; requestAnimationFrame((t) => { window.draw_.first = t; }); }
        if (n === ${size} && !window.draw_.asked2) { window.draw_.asked2 = true; requestAnimationFrame((t) => { window.draw_.all = t; }); }
      }).observe(document, { childList: true, subtree: true });`);
    await page.goto(`${server.url}/console/designer?bot=${botId}`);
    await page.waitForFunction(() => (window as unknown as { draw_: { all?: number } }).draw_.all !== undefined);
    const drawn = await page.evaluate(() => (window as unknown as { draw_: { first: number; all: number } }).draw_);
    if (run > 0) {
      first.push(drawn.first);
      all.push(drawn.all);
    }
    if (run === LOADS) frames = await pan(page);
    await page.context().close();
  }
  console.log(`${size} interactions, ${size * 2} paths (median of ${LOADS} loads):`);
  console.log(`  first node painted ${median(first).toFixed(0)} ms after navigation start, fastest ${Math.min(...first).toFixed(0)} (runs: ${first.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  all ${size} painted ${median(all).toFixed(0)} ms, fastest ${Math.min(...all).toFixed(0)} (runs: ${all.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  panning: ${frames.length} frames, interval median ${median(frames).toFixed(1)} ms, p95 ${pct(frames, 0.95).toFixed(1)} ms, longest ${Math.max(...frames).toFixed(1)} ms`);
}

/** 60 mouse moves dragging the canvas, with the intervals between animation frames meanwhile. */
async function pan(page: Page): Promise<number[]> {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  // A string: tsx would wrap the named function in a helper the page does not have.
  await page.evaluate(`(() => {
    window.frames_ = [];
    window.stop_ = false;
    let last = performance.now();
    const tick = (now) => {
      window.frames_.push(now - last);
      last = now;
      if (!window.stop_) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) await page.mouse.move(pane.x + pane.width / 2 - i * 8, pane.y + pane.height / 2 - i * 4);
  await page.mouse.up();
  return page.evaluate<number[]>('(window.stop_ = true, window.frames_.slice(1))');
}

try {
  console.log('designer in Chromium at 1280x800, SQLite:');
  for (const size of [4, 200]) await measure(size);
} finally {
  await browser.close();
  await server.close();
}
