// The Knowledge page's Ask box beside the bot's minimum (knowledge.md "The minimum", issue 36), in
// Debian's Chromium: each passage's 0..1 score, "under the minimum" beside those below it, the
// minimum itself, and, when the best passage does not clear it, the plain reason ("No answer: the
// best passage scored 0.30, under this bot's minimum 0.40"); by keyboard alone; axe-core clean at
// 1280x800 and 390x844. Screenshots: kscores-*.png in $COLLOQUY_SHOTS (default test-output/).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { signedInPage, SIZES } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, PETS_MD } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SHOTS = process.env.COLLOQUY_SHOTS ?? new URL('../../test-output/', import.meta.url).pathname;

describe('the Ask box shows scores beside the minimum (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let botId: string;
  before(async () => {
    server = await startTestServer('sqlite', { COLLOQUY_TOKEN_MINUTES: '100000' });
    tenant = await createTenant(server.client);
    botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'dana@example.org', undefined, 'Dana Designer', 'designer');
    await addSource(server, tenant, { Name: 'Travel rules', Text: PETS_MD });
    await addSource(server, tenant, { Name: 'Shop FAQ', Faq: [{ Question: 'Do you ship to Norway?', Answer: 'Yes, in five working days, for 12 euros.' }] });
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const size of SIZES) {
    test(`${size.name}: an answer with its scores, then a question under the minimum, by keyboard; axe clean`, async () => {
      const { page } = await signedInPage(browser, server, 'dana@example.org', size);
      await page.goto(`${server.url}/console/knowledge?bot=${botId}`);
      await page.locator('#sources > li').first().waitFor();

      await page.locator('#question').focus();
      await page.keyboard.type('How much does a pet in the cabin cost?');
      await page.keyboard.press('Enter');
      await page.locator('#answer .verdict-answered').waitFor();
      const minimum = (await page.locator('#answer .minimum').textContent())!;
      assert.match(minimum, /^Minimum score for an answer: 0\.40 \(knowledge\.minScore in the bot file\); the best passage scored (0\.\d\d|1\.00)\.$/);
      const best = page.locator('#answer .found > li').first().locator('.score');
      assert.match((await best.textContent())!, /^Score (0\.\d\d|1\.00)$/, 'a clearing score has no note');
      assert.deepEqual(await seriousViolations(page), []);
      await page.screenshot({ path: `${SHOTS}/kscores-${size.name}-answered.png`, fullPage: true });

      await page.locator('#question').fill('');
      await page.keyboard.type('Do you ship pianos to the moon?');
      await page.keyboard.press('Enter');
      await page.locator('#answer .verdict-no_answer').waitFor();
      assert.equal(await page.locator('#answer .verdict').textContent(), 'NO_ANSWER No answer.');
      const why = (await page.locator('#answer > .hint').textContent())!;
      const scored = /^No answer: the best passage scored (0\.\d\d), under this bot's minimum 0\.40\. /.exec(why);
      assert.ok(scored !== null, why);
      assert.ok(Number(scored[1]) < 0.4);
      assert.equal(await page.locator('#answer .found > li').first().locator('.score').textContent(), `Score ${scored[1]} (under the minimum)`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');
      assert.deepEqual(await seriousViolations(page), []);
      await page.screenshot({ path: `${SHOTS}/kscores-${size.name}-under.png`, fullPage: true });
      await page.context().close();
    });
  }
});
