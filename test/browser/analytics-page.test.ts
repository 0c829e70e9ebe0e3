// The analytics page (/console/analytics, issue 15 "Look, not read") in Debian's Chromium with its
// real CSP: a signed-in operator sees the scripted conversations (test/support/analytics-kit.ts)
// as six charts and the live flow as a picture with one box per behaviour and interaction; no
// CSP violation, no sideways scrolling on a phone, and axe-core finds no serious or critical
// violation. Screenshots: /work/shots/analytics-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DAY_A, DAY_C } from '../support/analytics-kit.js';
import { analyticsSuite, pageAt, SIZES, type Size } from '../support/analytics-page-kit.js';
import { seriousViolations } from '../support/axe.js';

describe('the analytics page (Chromium)', () => {
  const suite = analyticsSuite();


  const pageOf = async (size: Size, signedIn = true) => {
    const { page, errors } = await pageAt(suite.browser, suite.server, size, signedIn ? 'ann@example.org' : null);
    return { page, cspViolations: errors };
  };

  for (const size of SIZES) {
    test(`${size.name}: charts of the period and the flow picture, within the window, accessible`, async () => {
      const { page, cspViolations } = await pageOf(size);
      await page.goto(`${suite.server.url}/console/analytics?bot=${suite.botId}&from=${DAY_A}&to=${DAY_C}`);
      await page.locator('#flow svg g.node').first().waitFor();
      assert.equal(await page.getByRole('status').textContent(), `Analytics bot, ${DAY_A} to ${DAY_C}.`);
      assert.equal(await page.locator('#total-conversations').textContent(), '9');
      assert.equal(await page.locator('#total-messages').textContent(), '41');
      assert.equal(await page.locator('#total-handovers').textContent(), '2');
      assert.equal(await page.locator('#total-fallback').textContent(), '20%');
      assert.equal(await page.locator('#total-waiting').textContent(), '2 min');
      assert.equal(await page.locator('#total-first-response').textContent(), '5 min');
      assert.equal(await page.locator('#total-csat').textContent(), '4.0');

      // Six charts drawn by Chart.js (it sizes each canvas to its box), each named by its numbers.
      // (the knowledge card has no chart: this bot has no knowledge, so its card says none was asked)
      assert.equal(await page.locator('#knowledge-empty').textContent(), "No data for this period: no question was asked of the bot's knowledge.");
      assert.equal(await page.locator('#knowledge-chart').isHidden(), true);
      const charts = await page.locator('canvas:visible').evaluateAll((canvases) =>
        canvases.map((c) => ({ id: c.id, width: (c as HTMLCanvasElement).width, label: c.getAttribute('aria-label') })),
      );
      assert.deepEqual(charts.map((c) => c.id), ['chart-conversations', 'chart-messages', 'chart-waits', 'chart-csat', 'chart-fallback', 'chart-dropoff']);
      for (const chart of charts) assert.ok(chart.width > 100, `${chart.id} drawn (${chart.width} px)`);
      assert.match(charts[0].label!, /9 conversations started and 2 hand-overs/);
      assert.match(charts[1].label!, /15 user, 24 bot and 2 operator messages/);
      assert.match(charts[2].label!, /of 3 waits for a person, 2 taken over after 2 min \(median\), 10 min \(p90\); 2 answered after 5 min \(median\), 11 min \(p90\)/);
      assert.match(charts[3].label!, /3 CSAT answers, average 4\.0; 0 rated 1, 0 rated 2, 1 rated 3, 1 rated 4, 1 rated 5/);
      assert.match(charts[4].label!, /3 of 15 user messages \(20%\)/);
      assert.match(charts[5].label!, /Rate › Ask \(3\), Help › Ask \(2\), Main › Sorry \(1\), Orders › Done \(1\), Orders › Number \(1\)/);
      // The chart really has pixels: the canvas is not blank.
      const inked = await page.locator('#chart-messages').evaluate((c) => {
        const canvas = c as HTMLCanvasElement;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return n;
      });
      assert.ok(inked > 1000, `the messages chart has ${inked} painted pixels`);

      // The flow: 4 behaviours and 6 interactions, 10 paths, laid out without overlapping boxes;
      // and (issue 27) the hand-over to a person as a node of its own, reached from Help/Ask.
      assert.equal(await page.locator('#flow svg g.node').count(), 11);
      assert.equal(await page.locator('#flow svg g.node-handover').count(), 1);
      assert.equal(await page.locator('#flow svg g.node-behaviour').count(), 4);
      assert.equal(await page.locator('#flow svg g.edge').count(), 11);
      assert.deepEqual(await page.locator('#flow svg .edge-label').allTextContents(), ['Order', 'Help', '"human"', '"rate"']);
      const boxes = await page.locator('#flow svg g.node rect').evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().toJSON() as DOMRect));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          assert.ok(apart, `nodes ${i} and ${j} do not overlap`);
        }
      }

      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= size.width, 'no sideways scrolling');
      await page.screenshot({ path: `/work/shots/analytics-${size.name}.png` });
      await page.screenshot({ path: `/work/shots/analytics-${size.name}-full.png`, fullPage: true });
      await page.locator('#flow').screenshot({ path: `/work/shots/analytics-${size.name}-flow.png` });
      assert.deepEqual(cspViolations, []);
      assert.deepEqual(await seriousViolations(page), []);
      await page.context().close();
    });
  }

  test('a period where no conversation stopped says so instead of drawing an empty chart; presets change the period', async () => {
    const { page, cspViolations } = await pageOf(SIZES[0]);
    await page.goto(`${suite.server.url}/console/analytics?bot=${suite.botId}&from=${DAY_C}&to=${DAY_C}`);
    await page.getByText('No data for this period: no conversation has stopped in it yet.').waitFor();
    assert.equal(await page.locator('#chart-dropoff').isHidden(), true);
    assert.equal(await page.locator('#total-conversations').textContent(), '1');
    await page.getByRole('button', { name: '7 days' }).click();
    const url = new URL(page.url());
    const days = (Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)) / 86_400_000 + 1;
    assert.equal(days, 7);
    assert.deepEqual(cspViolations, []);
    await page.context().close();
  });

  test('signed out: the page says to sign in, and shows no data', async () => {
    const { page, cspViolations } = await pageOf(SIZES[0], false);
    await page.goto(`${suite.server.url}/console/analytics`);
    await page.getByRole('heading', { name: 'Sign in first' }).waitFor();
    assert.equal(await page.locator('#report').isHidden(), true);
    assert.equal(await page.getByRole('link', { name: 'Sign in to the console' }).getAttribute('href'), '/console');
    await page.screenshot({ path: '/work/shots/analytics-signed-out.png' });
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });
});
