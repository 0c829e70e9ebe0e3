// Issue 36 "No hidden triggers", by keyboard alone: the flow view says how many bot-level triggers
// can take a conversation away; the Bot tab lists every trigger (a keyword one, an intent one with
// its threshold, a behaviour's pattern) and the intents they name, each jumping to its form; the
// preview says under a reply which trigger or intent took the text, with the intent's score.
// Screenshots at 1280×800 and 390×844 in $TRIGGER_SHOTS (default the temporary folder); axe clean.
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { pageDatabases } from '../support/databases.js';
import { DESKTOP, designerWorld, pageAs, PHONE } from '../support/designer-kit.js';
import { supportBot } from '../support/fixtures.js';

const shot = (name: string) => path.join(process.env.TRIGGER_SHOTS ?? os.tmpdir(), `triggers-${name}.png`);

/** Presses Tab until `target` has the focus (a bounded number of times), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, most = 150): Promise<void> {
  await target.waitFor();
  for (let n = 0; n < most; n++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${target}`);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

for (const kind of pageDatabases()) {
  describe(`the designer shows the triggers and the preview says which one fired (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, supportBot(), [['tia@example.org', 'Tia Designer', 'designer']]);
    /** The live model's score of a text, as the preview shows it (the draft is the published version). */
    const scoreOf = async (text: string) => {
      const parsed = await world.server.client.post(`/bots/${world.tenant.botKey}/nlp/parse`, { Text: text }, { token: world.tenant.accountToken });
      assert.equal(parsed.body.Intent, 'track_order', parsed.text);
      return (parsed.body.Score as number).toFixed(2);
    };

    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      test(`listed, linked to their forms, and explained in the preview (${size})`, async () => {
        const { page, errors } = await pageAs(world.browser, world.server, 'tia@example.org', viewport);
        // the first visit builds the page's bundle on this busy machine: its load may take a while
        await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`, { timeout: 120_000 });
        await page.locator('.outline .pick').first().waitFor({ timeout: 60_000 });

        // The flow view's notice, then the Bot tab's section, reached by keyboard.
        const notice = page.locator('.triggers-notice');
        assert.equal(await notice.locator('span').textContent(), '5 bot-level triggers can take a conversation away from any point.');
        if (size === 'desktop') await page.screenshot({ path: shot(`${kind}-${size}-notice`) });
        await tabTo(page, notice.getByRole('button', { name: 'Show them' }));
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id === 'triggers-summary-title');
        const items = page.locator('.triggers-summary .trigger-list').first().locator('li');
        assert.deepEqual(await items.locator('.what').allTextContents(), [
          'The whole text is “human”, “agent” or “operator” (any case)',
          'The whole text is “restart” or “start over” (any case)',
          'Intent track_order, at a score of 0.7 or more (the bot’s threshold)',
          'Intent talk_to_person, at a score of 0.7 or more (the bot’s threshold)',
          'Intent opening_hours, at a score of 0.7 or more (the bot’s threshold)',
        ]);
        assert.deepEqual(await items.locator('.does').allTextContents(), [
          'Goes to Escalation › Ask For Human.',
          'Goes to Main › Welcome.',
          'Goes to Orders › its start.',
          'Goes to Escalation › Ask For Human.',
          'Says “We are open Monday to Friday from 9:00 to 18:00, and on Saturday from 10:00 to 14:00.”, then goes to Main › Anything Else.',
        ]);
        assert.equal(await items.first().locator('.hint').textContent(), 'Counts anywhere in the conversation, not while a question waits for an answer.');
        const own = page.locator('.triggers-summary .trigger-list').nth(1).locator('li');
        assert.equal(await own.locator('.what').textContent(), 'Pattern /^#?\\d{6}$/ found in the text');
        assert.equal(await own.locator('.hint').textContent(), 'Counts while in Orders, not while a question waits for an answer; keeps the text in order_number.');
        assert.deepEqual(await page.locator('.triggers-summary ul.trigger-list li .what').allTextContents(), ['track_order', 'talk_to_person', 'opening_hours']);
        await page.screenshot({ path: shot(`${kind}-${size}-bot-tab`) });
        assert.deepEqual(await seriousViolations(page), []);

        // Each jumps to its form: the intent trigger, then the intent it names.
        await tabTo(page, page.getByRole('button', { name: 'Edit trigger 3', exact: true }));
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => (document.activeElement?.id ?? '').startsWith('f-triggers-2-'));
        await tabTo(page, page.getByRole('button', { name: 'Edit intent track_order' }), 400);
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => (document.activeElement?.id ?? '').startsWith('f-nlp-intents-0-'));
        assert.equal(await focusedId(page), 'f-nlp-intents-0-name');

        // The preview: a keyword trigger, then an intent with its score.
        await tabTo(page, page.getByRole('tab', { name: 'Preview' }), 400);
        await page.keyboard.press('Enter');
        await tabTo(page, page.getByRole('button', { name: 'Start a preview conversation' }));
        await page.keyboard.press('Enter');
        await page.locator('.bubble.bot', { hasText: 'Welcome to ACME support!' }).waitFor();
        await tabTo(page, page.locator('#preview-text'));
        await page.keyboard.type('operator');
        await page.keyboard.press('Enter');
        const why = page.locator('.chat .why');
        await why.first().waitFor();
        assert.equal(await why.first().textContent(), 'Keyword trigger “human|agent|operator” took this message to Escalation › Ask For Human');
        // A person was asked for: start over for the intent.
        await tabTo(page, page.getByRole('button', { name: 'Start over' }));
        await page.keyboard.press('Enter');
        await why.first().waitFor({ state: 'detached' });
        await tabTo(page, page.locator('#preview-text'));
        const text = 'where is my parcel';
        await page.keyboard.type(text);
        await page.keyboard.press('Enter');
        await why.first().waitFor();
        assert.equal(await why.first().textContent(), `Intent track_order (${await scoreOf(text)}) took this message to Orders › Ask Number`);
        await why.first().scrollIntoViewIfNeeded();
        await page.screenshot({ path: shot(`${kind}-${size}-preview`) });
        assert.deepEqual(await seriousViolations(page), []);
        assert.deepEqual(errors, []);
        await page.context().close();
      });
    }
  });
}
