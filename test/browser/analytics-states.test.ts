// Issue 27 on the analytics page, in Chromium at 1280×800 and 390×844: a period with nothing to
// draw says so in every card instead of bare axes (item 12); a reversed or refused period shows
// its error alone, with no figures of an earlier period standing under it (item 12); a single day
// is drawn as bars, not a line from nowhere (item 17); each headline figure says how it moved
// from the previous period of the same length; and the CSV links download what is shown, the
// transcripts only for a role that opens conversations. axe-core finds nothing serious.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { DAY_A, DAY_B, DAY_C } from '../support/analytics-kit.js';
import { analyticsSuite, inkedIn, pageAt, settled, SIZES, type Size } from '../support/analytics-page-kit.js';
import { seriousViolations } from '../support/axe.js';

const CARDS = ['chart-conversations', 'chart-messages', 'chart-waits', 'chart-csat', 'chart-fallback', 'chart-dropoff'];

describe('the analytics page: empty, reversed, single-day and compared periods (Chromium)', () => {
  const suite = analyticsSuite();

  async function open(size: Size, query: string, email = 'ann@example.org'): Promise<{ page: Page; errors: string[] }> {
    const { page, errors } = await pageAt(suite.browser, suite.server, size, email);
    await page.goto(`${suite.server.url}/console/analytics?bot=${suite.botId}&${query}`);
    await settled(page);
    return { page, errors };
  }

  for (const size of SIZES) {
    test(`${size.name}: a period with no data says so in every card, with no bare axes`, async () => {
      const { page, errors } = await open(size, 'from=2026-10-01&to=2026-10-07');
      assert.equal(await page.getByRole('status').textContent(), 'Analytics bot, 2026-10-01 to 2026-10-07.');
      for (const id of CARDS) {
        const card = page.locator('section.card', { has: page.locator(`#${id}`) });
        assert.equal(await page.locator(`#${id}`).isVisible(), false, `${id} is not drawn`);
        const empty = card.locator('.empty');
        assert.equal(await empty.isVisible(), true, `${id} says it has no data`);
        assert.match((await empty.textContent())!, /^No data for this period: /);
      }
      assert.equal(await page.locator('#total-conversations').textContent(), '0 conversations');
      assert.equal(await page.locator('#total-waiting').textContent(), '–');
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= size.width, 'no sideways scrolling');
      await page.screenshot({ path: `/work/shots/analytics-empty-${size.name}.png`, fullPage: true });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test(`${size.name}: a reversed or refused period shows its error without the figures of the period before`, async () => {
      const { page, errors } = await open(size, `from=${DAY_A}&to=${DAY_C}`);
      assert.equal(await page.locator('#total-conversations').textContent(), '9 conversations');
      await page.locator('#from').fill('2026-11-05');
      await page.locator('#to').fill('2026-11-01');
      await page.locator('#show').click();
      await page.getByText('The period is reversed: "From" must not be after "To".').waitFor();
      assert.equal(await page.locator('#status').getAttribute('class'), 'status error');
      assert.equal(await page.locator('#report').isVisible(), false, 'no figures under the error');
      assert.equal(await page.locator('#total-conversations').isVisible(), false);
      assert.equal(await page.locator('#from').getAttribute('aria-invalid'), 'true');
      await page.screenshot({ path: `/work/shots/analytics-reversed-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), []);
      // Put right, the figures come back; a period the server refuses (over 366 days) hides them too.
      await page.locator('#from').fill(DAY_A);
      await page.locator('#show').click();
      await page.locator('#report').waitFor({ state: 'visible' });
      assert.equal(await page.locator('#total-conversations').textContent(), '4 conversations');
      assert.equal(await page.locator('#from').getAttribute('aria-invalid'), 'false');
      await page.locator('#from').fill('2024-01-01');
      await page.locator('#show').click();
      await page.getByText('A period may cover at most 366 days.').waitFor();
      assert.equal(await page.locator('#report').isVisible(), false);
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test(`${size.name}: a single day is drawn as bars, with each figure beside the day before`, async () => {
      const { page, errors } = await open(size, `from=${DAY_B}&to=${DAY_B}`);
      assert.equal(await page.getByRole('status').textContent(), `Analytics bot, ${DAY_B} to ${DAY_B}.`);
      // A bar of 4 conversations fills a block of the series' blue; a lone point or a ramp does not.
      const blue = await inkedIn(page, 'chart-conversations', '#2458d6');
      assert.ok(blue > 1500, `conversations drawn as a bar (${blue} blue pixels)`);
      assert.ok((await inkedIn(page, 'chart-fallback', '#b91c1c')) > 500, 'the fallback share drawn as a bar');
      assert.ok((await inkedIn(page, 'chart-waits', '#047857')) > 500, 'first responses drawn as bars');
      assert.match(
        (await page.locator('#chart-conversations').getAttribute('aria-label'))!,
        /^Bar chart from 2026-11-02 to 2026-11-02: 4 conversations started and 1 conversation handed over to a person/,
      );

      assert.equal(await page.locator('#compared').textContent(), 'compared with the day before (2026-11-01 to 2026-11-01)');
      const tiles = await page.locator('.total').evaluateAll((all) => all.map((t) => [...t.children].map((c) => c.textContent)));
      assert.deepEqual(tiles, [
        ['Conversations', '4 conversations', 'No change vs previous period (4 conversations)'],
        ['Messages', '26 messages', '+86% vs previous period (14 messages)'],
        ['Hand-overs', '1 conversation', 'No change vs previous period (1 conversation)'],
        ['Fallback share', '20%', 'No change vs previous period (20%)'],
        ['Waiting, median', '2 min', 'No figure in the previous period'],
        ['First response, median', '5 min', 'No figure in the previous period'],
        ['CSAT, average', '4.5 out of 5', '+1.5 vs previous period (3.0 out of 5)'],
      ]);
      assert.equal(await page.locator('#csat-hint').textContent(), 'Average 4.5 out of 5 from 2 answers.');
      await page.screenshot({ path: `/work/shots/analytics-single-day-${size.name}.png`, fullPage: true });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }

  test('the CSV links download the figures and transcripts shown; a designer gets no transcripts link', async () => {
    const { page, errors } = await open(SIZES[0], `from=${DAY_A}&to=${DAY_B}`);
    const [figures] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'figures' }).click()]);
    assert.equal(figures.suggestedFilename(), `analytics-${DAY_A}-${DAY_B}.csv`);
    const text = fs.readFileSync((await figures.path())!, 'utf8');
    assert.equal(text.split('\r\n')[3], '"Total",8,15,23,2,2,3,3,120,600,300,660,3,4');
    // keyboard: Enter on the focused link downloads too
    await page.getByRole('link', { name: 'transcripts' }).focus();
    const [transcripts] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    assert.equal(transcripts.suggestedFilename(), `transcripts-${DAY_A}-${DAY_B}.csv`);
    assert.equal(fs.readFileSync((await transcripts.path())!, 'utf8').split('\r\n')[0], '"UserId","Channel","Time","Direction","Text"');
    assert.deepEqual(errors, []);
    await page.context().close();

    const designer = await open(SIZES[0], `from=${DAY_A}&to=${DAY_B}`, 'dee@example.org');
    assert.equal(await designer.page.getByRole('link', { name: 'figures' }).isVisible(), true);
    assert.equal(await designer.page.getByRole('link', { name: 'transcripts' }).count(), 0);
    await designer.page.context().close();
  });
});
