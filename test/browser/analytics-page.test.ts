// The analytics page (/console/analytics, issue 15 "Look, not read") in Debian's Chromium with its
// real CSP: a signed-in operator sees the scripted conversations (test/support/analytics-kit.ts)
// as six charts and the live flow as a picture with one box per behaviour and interaction; no
// CSP violation, no sideways scrolling on a phone, and axe-core finds no serious or critical
// violation. Screenshots: /work/shots/analytics-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DAY_A, DAY_C } from '../support/analytics-kit.js';
import { analyticsSuite, inkedIn, pageAt, SHOTS, SIZES, type Size } from '../support/analytics-page-kit.js';
import { botFile, text } from '../support/chat-kit.js';
import { botIdOf, consoleClient, signIn } from '../support/console-kit.js';
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
      // Issue 37: one unit per figure, the tile and the chart that draws it alike (docs/analytics.md "Units").
      const tiles = await page.locator('.total').evaluateAll((all) => all.map((t) => t.children[1].textContent));
      assert.deepEqual(tiles, ['9 conversations', '41 messages', '2 conversations', '20%', '2 min', '5 min', '4.0 out of 5']);
      const unitOf = (id: string) => page.locator(`#${id}`).getAttribute('data-unit');
      assert.equal(await unitOf('chart-conversations'), 'conversations');
      assert.equal(await unitOf('chart-messages'), 'messages');
      assert.equal(await unitOf('chart-waits'), 'min');
      assert.equal(await unitOf('chart-fallback'), '%');
      assert.equal(await unitOf('chart-dropoff'), 'conversations');
      assert.equal(await page.locator('#delta-waiting').textContent(), 'No figure in the previous period');
      assert.equal(await page.locator('#csat-hint').textContent(), 'Average 4.0 out of 5 from 3 answers.');

      // Six charts drawn by Chart.js (it sizes each canvas to its box), each named by its numbers.
      // (the knowledge card has no chart: this bot has no knowledge, so its card says none was asked)
      assert.equal(await page.locator('#knowledge-empty').textContent(), "No data for this period: no question was asked of the bot's knowledge.");
      assert.equal(await page.locator('#knowledge-chart').isHidden(), true);
      const charts = await page.locator('canvas:visible').evaluateAll((canvases) => canvases.map((c) => ({ id: c.id, width: (c as HTMLCanvasElement).width, label: c.getAttribute('aria-label') })));
      assert.deepEqual(
        charts.map((c) => c.id),
        ['chart-conversations', 'chart-messages', 'chart-waits', 'chart-csat', 'chart-fallback', 'chart-dropoff'],
      );
      for (const chart of charts) assert.ok(chart.width > 100, `${chart.id} drawn (${chart.width} px)`);
      assert.match(charts[0].label!, /9 conversations started and 2 conversations handed over to a person/);
      assert.match(charts[1].label!, /41 messages, 15 from users, 24 from the bot and 2 from operators/);
      assert.match(charts[2].label!, /of 3 waits for a person, 2 taken over after 2 min \(median\), 10 min \(p90\); 2 answered after 5 min \(median\), 11 min \(p90\)/);
      assert.match(charts[3].label!, /3 CSAT answers, average 4\.0 out of 5; 0 rated 1, 0 rated 2, 1 rated 3, 1 rated 4, 1 rated 5/);
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

      // Issue 37: lines that do not hide each other. Every line of a chart has its own colour, dash
      // pattern and marker, named in an HTML legend drawn from the chart's datasets, and each
      // colour is really painted (the waits' p90 lines were the medians' colours, only dashed).
      for (const [id, labels] of [
        ['chart-conversations', ['Conversations started', 'Conversations handed over to a person']],
        ['chart-waits', ['Waiting, median', 'Waiting, p90', 'First response, median', 'First response, p90']],
      ] as const) {
        const legend = page.locator('section.card', { has: page.locator(`#${id}`) }).getByRole('list', { name: 'Series' });
        const items = await legend.locator('li').evaluateAll((lis) =>
          lis.map((li) => ({
            label: li.textContent,
            colour: li.querySelector('line')?.getAttribute('stroke'),
            dash: li.querySelector('line')?.getAttribute('stroke-dasharray'),
            marker: li.querySelector('[data-shape]')?.getAttribute('data-shape'),
          })),
        );
        assert.deepEqual(
          items.map((i) => i.label),
          labels,
        );
        for (const key of ['colour', 'dash', 'marker'] as const) {
          assert.equal(new Set(items.map((i) => i[key])).size, items.length, `${id}: each line has its own ${key} (${items.map((i) => i[key])})`);
        }
        for (const item of items) assert.ok((await inkedIn(page, id, item.colour!)) > 20, `${id}: ${item.label} is drawn in ${item.colour}`);
      }

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
      await page.locator('#cards').screenshot({ path: `${SHOTS}/analytics/charts-${size.name}.png` });
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
    assert.equal(await page.locator('#total-conversations').textContent(), '1 conversation');
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

  test('no rating in the period: the CSAT card offers to add a rating question to the bot, with the keyboard; a bot that asks already is told where', async () => {
    // a bot of the same account that never asks for a rating
    const created = await suite.server.client.post('/bots', botFile([{ name: 'Hi', actions: [text('Hi')] }], { name: 'Shop bot' }), { token: suite.tenant.accountToken });
    assert.equal(created.status, 201, created.text);
    const shopId = await botIdOf(suite.server, created.body.APIKey);
    const admin = consoleClient(suite.server.client, await signIn(suite.server.client, 'ann@example.org'));
    for (const size of SIZES) {
      const { page, cspViolations } = await pageOf(size);
      await page.goto(`${suite.server.url}/console/analytics?bot=${shopId}&from=${DAY_A}&to=${DAY_C}`);
      const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Satisfaction (CSAT)' }) });
      await card.getByText('No data for this period: nobody rated a conversation.').waitFor();
      assert.equal(await card.getByText(/variable csat/).count(), 0, 'no "set the variable csat" for a person who does not code');
      const add = card.getByRole('button', { name: 'Add a rating question to Shop bot' });
      await card.screenshot({ path: `${SHOTS}/analytics/csat-offer-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), []);
      await add.focus();
      await page.keyboard.press('Enter');
      const open = card.getByRole('link', { name: 'Open Rating in the designer' });
      await open.waitFor();
      if (size === SIZES[0]) {
        // the first press added the behaviour: the question, buttons 1 to 5 that set csat, nothing else broken
        assert.match(
          (await card.getByRole('status').textContent())!,
          /^Added to the draft: the behaviour "Rating" asks "How would you rate this conversation\? 1 is poor, 5 is great\." with buttons 1 to 5/,
        );
        const draft = (await admin.get(`/bots/${shopId}/draft`)).body;
        const rating = draft.behaviours.find((b: { name: string }) => b.name === 'Rating');
        const buttons = rating.interactions[0].actions[1].buttons;
        assert.deepEqual(rating.interactions[0].actions[0], { type: 'setVariable', name: 'csat', mode: 'clear' }, 'asking again later counts again');
        assert.deepEqual(
          buttons.map((b: any) => [b.text, b.onClick[0].type, b.onClick[0].name, b.onClick[0].value]),
          [1, 2, 3, 4, 5].map((n) => [String(n), 'setVariable', 'csat', String(n)]),
        );
        assert.deepEqual((await admin.get(`/bots/${shopId}/draft/problems`)).body.Problems, []);
      } else {
        // the second time (the phone), the draft asks already: nothing is added twice
        assert.match((await card.getByRole('status').textContent())!, /^The bot already asks for a rating in Rating › Ask/);
        const draft = (await admin.get(`/bots/${shopId}/draft`)).body;
        assert.equal(draft.behaviours.filter((b: { name: string }) => /^rating/i.test(b.name)).length, 1);
      }
      assert.equal(await open.evaluate((a) => a === document.activeElement), true, 'the focus moves to the link');
      assert.equal(await open.getAttribute('href'), `/console/designer?bot=${shopId}`);
      assert.equal(await add.count(), 0);
      await card.screenshot({ path: `${SHOTS}/analytics/csat-offer-done-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(cspViolations, []);
      await page.context().close();
    }
    // The analytics bot asks already (Rate › Ask): its card says where, and its draft is unchanged.
    const before = (await admin.get(`/bots/${suite.botId}/draft/problems`)).body.Version;
    const { page } = await pageOf(SIZES[0]);
    await page.goto(`${suite.server.url}/console/analytics?bot=${suite.botId}&from=${DAY_C}&to=${DAY_C}`);
    await page.getByRole('button', { name: 'Add a rating question to Analytics bot' }).click();
    await page.getByText('The bot already asks for a rating in Rate › Ask (it sets the variable csat); nobody answered in this period.').waitFor();
    assert.equal((await admin.get(`/bots/${suite.botId}/draft/problems`)).body.Version, before);
    await page.context().close();
  });
});
