// A bot of 200 interactions opens in the designer with every node and path drawn, and the canvas
// fills the space it is given: at 1280x800 the page does not scroll and the canvas reaches the
// bottom; at 390x844 it is as wide as the screen allows and tall enough to work in. Its first view
// is readable (zoom 0.6 or more, issue 37), and a step chosen in the list is brought into view;
// on a phone the page does not scroll sideways and the canvas pans. (How fast it
// draws and pans is measured by `npm run bench:designer`, not asserted here.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, largeBot, pageAs, PHONE, readableZoom, shot } from '../support/designer-kit.js';

for (const kind of pageDatabases()) {
  describe(`the designer with a large bot (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, largeBot(200, 4), [['dee@example.org', 'Dee Designer', 'designer']]);

    test('200 interactions and 400 paths are drawn, and the canvas fills the desktop window', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.waitForFunction(() => document.querySelectorAll('.react-flow__node-step').length === 200);
      assert.equal(await page.locator('.outline .pick').count(), 200);
      await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 400);
      const canvas = (await page.locator('.canvas').boundingBox())!;
      const outline = (await page.locator('.outline').boundingBox())!;
      const side = (await page.locator('.side').boundingBox())!;
      assert.ok(canvas.x > outline.x + outline.width && canvas.x + canvas.width < side.x, 'between the list and the side panel');
      assert.ok(canvas.width >= 1280 - outline.width - side.width - 80, `canvas ${canvas.width} px wide`);
      assert.ok(canvas.y + canvas.height >= 800 - 24 && canvas.y + canvas.height <= 800, `canvas bottom at ${canvas.y + canvas.height}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight), 'the page itself does not scroll');
      // Readable at first (the start's neighbourhood, not all 200 at a tenth of their size), and a
      // step chosen in the list far down is brought into view.
      const start = (await page
        .locator('.react-flow__node-step', { hasText: /^Step 1start$/ })
        .first()
        .boundingBox())!;
      assert.ok(start.width >= 90, `the start node is ${start.width} px wide`);
      await readableZoom(page);
      await page
        .locator('.outline .pick', { hasText: /^Step 45$/ })
        .first()
        .click();
      const far = page.locator('.react-flow__node-step.selected');
      await page.waitForFunction(() => {
        const node = document.querySelector('.react-flow__node-step.selected')?.getBoundingClientRect();
        const pane = document.querySelector('.canvas')!.getBoundingClientRect();
        return node !== undefined && node.top >= pane.top && node.bottom <= pane.bottom && node.left >= pane.left && node.right <= pane.right;
      });
      assert.equal(await far.locator('.step-name').textContent(), 'Step 45');
      await page.screenshot({ path: shot(kind, 'large') });
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test("on a phone the canvas takes the screen's width and a working height", async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', PHONE);
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.waitForFunction(() => document.querySelectorAll('.react-flow__node-step').length === 200);
      const canvas = (await page.locator('.canvas').boundingBox())!;
      assert.ok(canvas.width >= PHONE.width - 40, `canvas ${canvas.width} px wide`);
      assert.ok(canvas.height >= 320, `canvas ${canvas.height} px high`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
      await readableZoom(page);
      await page.screenshot({ path: shot(kind, 'large-phone') });
      // Dragging the background pans the flow.
      const before = await page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
      const pane = (await page.locator('.react-flow__pane').boundingBox())!;
      await page.mouse.move(pane.x + pane.width - 20, pane.y + 20);
      await page.mouse.down();
      await page.mouse.move(pane.x + 40, pane.y + 60, { steps: 5 });
      await page.mouse.up();
      assert.notEqual(await page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform), before, 'the canvas pans');
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
