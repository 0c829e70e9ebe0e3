// The Knowledge page edits an FAQ pair by pair (issue 37 item 7, knowledge.md "Console"), in
// Debian's Chromium with its real CSP, by keyboard alone: open the FAQ, change the 2nd answer,
// delete the 3rd pair (asked first), move one up, add one, paste a CSV of 3 rows (and see the
// message for a bad line), save; after a reload the FAQ holds exactly the new pairs, in order, as
// the API says too. axe-core finds no serious or critical violation at 1280x800 and 390x844.
// Screenshots: kfaq-*.png in $COLLOQUY_SHOTS (default test-output/).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { signedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, base } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SHOTS = process.env.COLLOQUY_SHOTS ?? new URL('../../test-output/', import.meta.url).pathname;
const FAQ = [
  { Question: 'Do you repair e-bikes?', Answer: 'Yes, every make, in two days.' },
  { Question: 'Can I rent a bike?', Answer: 'City bikes cost 15 euros a day.' },
  { Question: 'Do you sell helmets?', Answer: 'Helmets from 40 euros.' },
  { Question: 'Where can I park?', Answer: 'Two spaces behind the workshop.' },
];
const CSV = 'question;answer\r\n"Do you ship abroad?";"Yes; to Norway, Sweden and Denmark."\r\nCan I pay by card?;Visa and Mastercard.\r\n"Is there a ""bike of the month""?";"Yes, 10% off."\r\n';

describe('editing an FAQ pair by pair on the Knowledge page (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let botId: string;
  let sourceId: string;

  before(async () => {
    server = await startTestServer('sqlite', { COLLOQUY_TOKEN_MINUTES: '100000' });
    tenant = await createTenant(server.client);
    botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'dana@example.org', undefined, 'Dana Designer', 'designer');
    sourceId = (await addSource(server, tenant, { Name: 'Shop FAQ', Faq: FAQ })).SourceId;
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAt(width: number, height: number): Promise<{ page: Page; problems: string[] }> {
    const { page, errors: problems } = await signedInPage(browser, server, 'dana@example.org', { width, height });
    await page.goto(`${server.url}/console/knowledge?bot=${botId}`);
    await page.locator('#sources .source-name', { hasText: 'Shop FAQ' }).waitFor();
    return { page, problems };
  }

  /** Tab until `selector` has the focus (at most 120 presses), as a keyboard user would. */
  async function tabTo(page: Page, selector: string): Promise<void> {
    for (let i = 0; i < 120; i++) {
      if (await page.locator(selector).evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    assert.fail(`Tab never reached ${selector}`);
  }

  const shownPairs = (page: Page) =>
    page.locator('#faq-rows > li').evaluateAll((rows) => rows.map((row) => ({ Question: row.querySelector('input')!.value, Answer: row.querySelector('textarea')!.value })));

  async function openEditor(page: Page): Promise<void> {
    await tabTo(page, 'button[aria-label="Edit pairs of Shop FAQ"]');
    await page.keyboard.press('Enter');
    await page.locator('#add-title', { hasText: 'Edit “Shop FAQ”' }).waitFor();
  }

  test('by keyboard alone: edit the 2nd, delete the 3rd, move one up, add one, paste a CSV, save; the reload shows exactly the new pairs', async () => {
    const { page, problems } = await pageAt(1280, 800);
    await openEditor(page);
    assert.deepEqual(await shownPairs(page), FAQ, 'the stored pairs, in order');
    assert.equal(await page.locator('#add-submit').textContent(), 'Save pairs');

    await tabTo(page, '#faq-rows > li:nth-child(2) textarea');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('City bikes cost 18 euros a day, e-bikes 35.');

    await tabTo(page, 'button[aria-label="Delete question 3"]');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#faq-rows > li').length === 3);
    assert.equal(asked, 'Delete question 3 “Do you sell helmets?” and its answer?');

    // the parking question (now 3rd) goes up one; the focus stays on its button
    await tabTo(page, 'button[aria-label="Move up question 3"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Move up question 2');

    await tabTo(page, '#faq-add');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), await page.locator('#faq-rows > li:nth-child(4) input').getAttribute('id'));
    await page.keyboard.type('Do you open on Sunday?');
    await page.keyboard.press('Tab');
    await page.keyboard.type('No, Monday to Saturday.');

    // a bad line is named and adds nothing; then the 3 rows
    await tabTo(page, '#faq-csv');
    await page.keyboard.insertText('Only a question');
    await tabTo(page, '#faq-csv-add');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#faq-csv-problems').textContent(), 'Line 1: a question needs its answer after a comma or a semicolon.');
    assert.equal(await page.locator('#faq-rows > li').count(), 4);
    await tabTo(page, '#faq-csv');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(CSV);
    await tabTo(page, '#faq-csv-add');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#faq-csv-status').textContent(), '3 pairs added from the pasted CSV.');
    assert.equal(await page.locator('#faq-csv-problems li').count(), 0);
    await page.screenshot({ path: `${SHOTS}/kfaq-desktop-editing.png`, fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);

    await tabTo(page, '#add-submit');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: /^Replaced “Shop FAQ”: 7 passages, ready\.$/ }).waitFor();

    const expected = [
      { Question: 'Do you repair e-bikes?', Answer: 'Yes, every make, in two days.' },
      { Question: 'Where can I park?', Answer: 'Two spaces behind the workshop.' },
      { Question: 'Can I rent a bike?', Answer: 'City bikes cost 18 euros a day, e-bikes 35.' },
      { Question: 'Do you open on Sunday?', Answer: 'No, Monday to Saturday.' },
      { Question: 'Do you ship abroad?', Answer: 'Yes; to Norway, Sweden and Denmark.' },
      { Question: 'Can I pay by card?', Answer: 'Visa and Mastercard.' },
      { Question: 'Is there a "bike of the month"?', Answer: 'Yes, 10% off.' },
    ];
    await page.reload();
    await page.locator('#sources .source-name', { hasText: 'Shop FAQ' }).waitFor();
    await openEditor(page);
    assert.deepEqual(await shownPairs(page), expected);
    const stored = await server.client.get(`${base(tenant)}/${sourceId}`, { token: tenant.accountToken });
    assert.deepEqual(stored.body.Faq, expected);
    assert.deepEqual(problems, []);
  });

  test('390x844: the editor fits the phone, accessible; a half-filled pair is named before anything is sent', async () => {
    const { page, problems } = await pageAt(390, 844);
    await openEditor(page);
    await page.locator('#faq-rows > li:first-child').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/kfaq-phone-editing.png` });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');
    assert.deepEqual(await seriousViolations(page), []);
    await page.locator('#faq-add').click();
    await page.keyboard.type('Half a pair?');
    await page.locator('#add-submit').click();
    assert.equal(await page.locator('#add-error').textContent(), `Question ${await page.locator('#faq-rows > li').count()} has no answer.`);
    assert.deepEqual(problems, []);
  });
});
