// Issue 15, "Build" for the widget: consecutive messages of one sender are grouped (one "Operator"
// label, one time under the group's newest message), and what is said now shows the time it was
// said. In real Chromium at 1280×800 on /demo. Screenshots: test-output/widget-build-*.png.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { launchChromium, screenshot, servePictures } from '../support/browser.js';
import { chatOk } from '../support/chat-kit.js';
import { botToken } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A time as the widget writes it, e.g. "07:05 AM" (en-US) or "07:05". */
const TIME = /^\d{1,2}:\d{2}( [AP]M)?$/;

describe('widget grouping and times (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let keys: DemoKeys;
  let token: string;
  const shots: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    keys = (await seedDemo(server.running.services))!;
    token = await botToken(server.client, keys.accountKey, keys.botKey, keys.botSecret);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(10_000);
    await servePictures(page);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  const log = () => page.getByRole('log', { name: 'Conversation' });
  const said = (text: string) => log().getByText(text, { exact: true }).last().waitFor();
  const live = () => page.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' });
  /** For each row: its classes, its label and its time. */
  const rows = () =>
    page.evaluate(() =>
      Array.from(document.querySelector('#colloquy-widget')!.shadowRoot!.querySelectorAll('.log > .row')).map((r) => ({
        cls: r.className,
        who: r.querySelector('.who')?.textContent ?? null,
        at: r.querySelector('.at')?.getAttribute('data-t') ?? null,
      })),
    );

  test('the welcome is one group of bot messages with one time, under its newest message', async () => {
    await page.goto(`${server.url}/demo`);
    await said('What can I do for you?');
    await live();
    const welcome = await rows();
    assert.deepEqual(
      welcome.map((r) => r.cls),
      ['row bot', 'row bot grouped'],
    );
    assert.equal(welcome[0]!.at, null);
    assert.match(welcome[1]!.at ?? '', TIME);
    shots.push(await screenshot(page, 'widget-build-1-welcome-group'));
  });

  test('the user and the operator get their own groups; consecutive operator messages carry one label', async () => {
    await log().getByRole('button', { name: 'Talk to a person', exact: true }).click();
    await said('I am asking a colleague to join. Please hold on.');
    const user = (await userId())!;
    await chatOk(server, token, { UserId: user, Text: 'Hello, Ann here.' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
    await said('Hello, Ann here.');
    await chatOk(server, token, { UserId: user, Text: 'How can I help?' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
    await said('How can I help?');
    const all = await rows();
    const userRow = all.findIndex((r) => r.cls.startsWith('row user'));
    assert.equal(all[userRow]!.cls, 'row user');
    assert.match(all[userRow]!.at ?? '', TIME);
    const operators = all.filter((r) => r.cls.startsWith('row operator'));
    assert.deepEqual(
      operators.map((r) => [r.cls, r.who, r.at === null]),
      [
        ['row operator', 'Operator', true],
        ['row operator grouped', null, false],
      ],
    );
    assert.match(operators[1]!.at ?? '', TIME);
    shots.push(await screenshot(page, 'widget-build-2-operator-group'));
  });

  test('a reloaded history is grouped too, with its times (issue 27: the history has them), one under the newest row of each group', async () => {
    const before = (await rows()).filter((r) => r.cls.startsWith('row ') && !r.cls.includes('notice'));
    await page.reload();
    await said('How can I help?');
    await live();
    const all = (await rows()).filter((r) => !r.cls.includes('notice'));
    assert.deepEqual(
      all.map((r) => [r.cls, r.at === null]),
      before.map((r) => [r.cls, r.at === null]),
    );
    for (const row of all) if (row.at !== null) assert.match(row.at, TIME);
    assert.equal(all[1]!.cls, 'row bot grouped');
    shots.push(await screenshot(page, 'widget-build-3-reloaded'));
  });

  const userId = () => page.evaluate((key) => localStorage.getItem(`colloquy:${key}:user`), keys.webKey);
});
