// The console's Knowledge page (/console/knowledge, knowledge.md "Console", issue 24) in Debian's
// Chromium with its real CSP: a designer uploads a DOCX made by the test, sees it ready with its
// passages, asks and sees the answer with the passages' scores, deletes it; the page refuses a file
// over 10 MiB before sending it and shows the server's own refusal of a broken PDF; an agent is told
// the page is not for their role; everything works by keyboard alone; axe-core finds no serious or
// critical violation at 1280x800 and 390x844. The demo's FAQ source shows on the page as `npm start`
// seeds it. Screenshots: kpage-*.png in $COLLOQUY_SHOTS (default test-output/).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { signedInPage, SIZES, type Size } from '../support/console-page-kit.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { chatOk } from '../support/chat-kit.js';
import { docxFile } from '../support/knowledge-files.js';
import { addSource, PETS_MD } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { seedDemo } from '../../src/demo.js';
import { INTERRUPTED } from '../../src/knowledge/indexing-lease.js';

/** A large PDF whose indexing was cut short by a stop: failed with the reason (indexing-lease.ts). */
async function leaveFailed(server: TestServer, botId: string): Promise<void> {
  const now = Date.now();
  const source = {
    id: crypto.randomUUID(),
    botId,
    name: 'Price list.pdf',
    kind: 'pdf' as const,
    url: null,
    status: 'indexing' as const,
    error: null,
    chunks: 0,
    bytes: 3_400_000,
    generation: 0,
    createdAt: now - 300_000,
    updatedAt: now - 300_000,
  };
  await server.running.store.transaction((tx) => tx.knowledge.insert(source, { sources: 200, bytes: 50 * 1024 * 1024 }));
  await server.running.maintenance.runOnce();
}

const SHOTS = process.env.COLLOQUY_SHOTS ?? new URL('../../test-output/', import.meta.url).pathname;
const DOCX_NAME = 'Shop guide.docx';

describe('the Knowledge page (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let botId: string;
  let docx: Buffer;

  before(async () => {
    server = await startTestServer('sqlite', { COLLOQUY_TOKEN_MINUTES: '100000' });
    tenant = await createTenant(server.client);
    botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'dana@example.org', undefined, 'Dana Designer', 'designer');
    await addOperator(server.client, tenant.accountId, 'abe@example.org', undefined, 'Abe Agent', 'agent');
    await addSource(server, tenant, { Name: 'Travel rules', Text: PETS_MD });
    await addSource(server, tenant, {
      Name: 'Shop FAQ',
      Faq: [
        { Question: 'Do you ship to Norway?', Answer: 'Yes, in five working days, for 12 euros.' },
        { Question: 'Can I return a gift?', Answer: 'Gifts can be exchanged within 30 days with the receipt.' },
      ],
    });
    docx = await docxFile([{ heading: 'Opening hours' }, 'The shop opens at nine and closes at six.', { heading: 'Parking' }, 'Free parking for customers behind the shop, next to the bakery.']);
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAt(size: Size, email = 'dana@example.org'): Promise<{ page: Page; problems: string[] }> {
    const { page, errors: problems } = await signedInPage(browser, server, email, size);
    await page.goto(`${server.url}/console/knowledge?bot=${botId}`);
    return { page, problems };
  }

  const item = (page: Page, name: string) => page.locator('#sources > li', { has: page.locator('.source-name', { hasText: name }) });
  /** A source's facts as "Kind: FAQ" lines (the colon is drawn by CSS). */
  const facts = (page: Page, name: string) =>
    item(page, name)
      .locator('.facts > div')
      .evaluateAll((rows) => rows.map((row) => `${row.querySelector('dt')!.textContent}: ${row.querySelector('dd')!.textContent}`));

  test('upload a DOCX, see it ready with its passages, ask and see the scores, delete it', async () => {
    const { page, problems } = await pageAt(SIZES[0]);
    await item(page, 'Shop FAQ').waitFor();
    assert.deepEqual(await page.locator('#sources .source-name').allTextContents(), ['Shop FAQ', 'Travel rules'], 'newest first');
    assert.equal(await item(page, 'Shop FAQ').locator('.badge').textContent(), 'Ready');
    assert.deepEqual((await facts(page, 'Shop FAQ')).slice(0, 3), ['Kind: FAQ', 'Passages: 2', 'Size: 137 B']);

    await page.locator('#file').setInputFiles({ name: DOCX_NAME, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: docx });
    await page.getByRole('button', { name: 'Add source' }).click();
    await item(page, DOCX_NAME).waitFor();
    const added = item(page, DOCX_NAME);
    assert.equal(await added.locator('.badge').textContent(), 'Ready');
    const shown = await facts(page, DOCX_NAME);
    assert.deepEqual(shown.slice(0, 3), ['Kind: DOCX', 'Passages: 2', `Size: ${(docx.length / 1024).toFixed(1)} KB`]);
    assert.match(shown[3]!, /^Updated: \w{3} \d{1,2}, \d{4}/);
    assert.match((await page.getByRole('status').textContent())!, /Added “Shop guide\.docx”: 2 passages, ready\./);

    await added.getByRole('button', { name: `Passages of ${DOCX_NAME}` }).click();
    await page.locator('#passages-title', { hasText: DOCX_NAME }).waitFor();
    assert.equal(await page.locator('#passages-title').textContent(), `Passages of “${DOCX_NAME}”`);
    assert.deepEqual(await page.locator('#passages .passage-heading').allTextContents(), ['Opening hours', 'Parking']);
    await page.screenshot({ path: `${SHOTS}/kpage-desktop-passages.png` });

    await page.locator('#question').fill('Where can I park my car?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('#answer .found').waitFor();
    assert.equal(await page.locator('#answer .verdict .badge').textContent(), 'ANSWERED');
    assert.match((await page.locator('#answer .answer-text').textContent())!, /Free parking for customers behind the shop/);
    assert.equal(await page.locator('#answer > .hint').textContent(), `Sources: ${DOCX_NAME}`);
    const first = page.locator('#answer .found > li').first();
    assert.match((await first.locator('.score').textContent())!, /^Score \d\.\d{2}$/);
    assert.equal(await first.locator('.passage-source').textContent(), `${DOCX_NAME} › Parking`);
    assert.equal(await first.locator('.badge').textContent(), 'used in the answer');
    await page.screenshot({ path: `${SHOTS}/kpage-desktop-ask.png`, fullPage: true });

    await page.locator('#question').fill('What colour is the moon tonight?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('#answer .verdict-no_answer').waitFor();
    assert.match((await page.locator('#answer > .hint').textContent())!, /^No passage shares a word with the question/);

    page.once('dialog', (dialog) => {
      assert.match(dialog.message(), /^Delete “Shop guide\.docx” and its 2 passages\?/);
      void dialog.accept();
    });
    await added.getByRole('button', { name: `Delete ${DOCX_NAME}` }).click();
    await added.waitFor({ state: 'detached' });
    assert.equal(await page.locator('#passages-card').isHidden(), true, 'the deleted source’s passages are closed');
    const left = await server.client.get(`/bots/${tenant.botKey}/knowledge`, { token: tenant.accountToken });
    assert.deepEqual(
      left.body.Result.map((s: { Name: string }) => s.Name),
      ['Shop FAQ', 'Travel rules'],
    );
    assert.deepEqual(problems, []);
  });

  test('a file over 10 MiB is refused before sending; the server’s refusal of a broken PDF is shown; nothing is added', async () => {
    const { page, problems } = await pageAt(SIZES[0]);
    await item(page, 'Shop FAQ').waitFor();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.locator('#file').setInputFiles({ name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
    await page.getByRole('button', { name: 'Add source' }).click();
    assert.equal(await page.locator('#add-error').textContent(), 'huge.txt is 10.0 MiB; a source holds at most 10 MiB.');
    assert.deepEqual(sent, [], 'nothing was sent');

    await page.locator('#file').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\nthis is not a PDF at all') });
    await page.getByRole('button', { name: 'Add source' }).click();
    await page.locator('#add-error', { hasText: 'cannot be indexed' }).waitFor();
    assert.match((await page.locator('#add-error').textContent())!, /^The document cannot be indexed: .*not a readable PDF/);
    assert.deepEqual(sent, [`POST /console/api/bots/${botId}/knowledge`]);
    assert.equal(await page.locator('#sources > li').count(), 2);
    assert.deepEqual(problems, []);
  });

  test('by keyboard alone: add FAQ pairs, ask, read the passages, delete', async () => {
    const { page } = await pageAt(SIZES[0]);
    await item(page, 'Shop FAQ').waitFor();
    /** Tab until `selector` has the focus (at most 80 presses), as a keyboard user would. */
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 80; i++) {
        if (await page.locator(selector).evaluate((el) => el === document.activeElement)) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`Tab never reached ${selector}`);
    };
    await tabTo('input[name="kind"][value="file"]');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight'); // file → text → html → faq
    assert.equal(await page.locator('input[name="kind"]:checked').getAttribute('value'), 'faq');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Bakery FAQ');
    await tabTo('#faq-rows > li:first-child input');
    await page.keyboard.type('Do you bake sourdough bread?');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Sourdough loaves come out of the oven every morning at seven.');
    await tabTo('#add-submit');
    await page.keyboard.press('Enter');
    await item(page, 'Bakery FAQ').waitFor();
    assert.equal(await item(page, 'Bakery FAQ').locator('.badge').textContent(), 'Ready');

    await tabTo('#question');
    await page.keyboard.type('When is the sourdough ready?');
    await page.keyboard.press('Enter');
    await page.locator('#answer .found').waitFor();
    assert.equal(await page.locator('#answer .passage-source').first().textContent(), 'Bakery FAQ › Do you bake sourdough bread?');

    await page.locator('#bot').focus(); // back to the top, then forward through the list
    await tabTo('#sources > li:first-child button:has-text("Passages")');
    await page.keyboard.press('Enter');
    await page.locator('#passages-card').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'passages-title', 'the passages take the focus');
    await page.locator('#bot').focus();
    await tabTo('#sources > li:first-child button.danger');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.keyboard.press('Enter');
    await item(page, 'Bakery FAQ').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'add-title');
  });

  for (const size of SIZES) {
    test(`${size.name}: within the window, accessible, a failed source with its reason; screenshots`, async () => {
      if (size === SIZES[0]) await leaveFailed(server, botId);
      const { page, problems } = await pageAt(size);
      await item(page, 'Shop FAQ').waitFor();
      const failed = item(page, 'Price list.pdf');
      assert.deepEqual([await failed.locator('.badge').textContent(), await failed.locator('.error').textContent()], ['Failed', `Not indexed: ${INTERRUPTED}`]);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');
      await page.screenshot({ path: `${SHOTS}/kpage-${size.name}.png` });
      await page.locator('#question').fill('Can pets travel in the cabin?');
      await page.locator('#question').press('Enter');
      await page.locator('#answer .found').waitFor();
      await page.locator('input[name="kind"][value="faq"]').check();
      await page.getByRole('button', { name: 'Passages of Travel rules' }).click();
      await page.locator('#passages-card').waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      await page.screenshot({ path: `${SHOTS}/kpage-${size.name}-full.png`, fullPage: true });
      assert.deepEqual(problems, []);
    });
  }

  test("the analytics page's knowledge card charts the questions answered and not", async () => {
    const asker = await createTenant(server.client, { ...supportBot(), knowledge: { beforeFallback: true } });
    await addSource(server, asker, { Name: 'Travel rules', Text: PETS_MD });
    for (const [user, words] of [
      ['kb-1', 'Can pets travel in the cabin?'],
      ['kb-2', 'How heavy may a suitcase be?'],
      ['kb-3', 'What colour is the moon tonight?'],
    ]) {
      await chatOk(server, asker.botToken, { UserId: user });
      await chatOk(server, asker.botToken, { UserId: user, Text: words });
    }
    await addOperator(server.client, asker.accountId, 'ana@example.org', undefined, 'Ana', 'designer');
    const { page } = await pageAt(SIZES[0], 'ana@example.org');
    await page.goto(`${server.url}/console/analytics?bot=${await botIdOf(server, asker.botKey)}`);
    await page.locator('#chart-knowledge').waitFor();
    assert.match((await page.locator('#chart-knowledge').getAttribute('aria-label'))!, /: 3 questions asked of the knowledge, 2 answered and 1 not answered\.$/);
    assert.equal(await page.locator('#knowledge-empty').isHidden(), true);
    await page.locator('#knowledge-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/kpage-analytics.png` });
  });

  test('an agent is told the page is not for their role', async () => {
    const { page } = await pageAt(SIZES[1], 'abe@example.org');
    await page.locator('#notice').waitFor();
    assert.equal(await page.locator('#notice-title').textContent(), 'Not for your role');
    assert.match((await page.locator('#notice-text').textContent())!, /Your role \(agent\) opens conversations only/);
    assert.equal(await page.locator('#workspace').isHidden(), true);
    assert.deepEqual(await seriousViolations(page), []);
  });
});

describe('the Knowledge page on the demo (Chromium)', () => {
  test("the demo bot's FAQ source is listed ready, and the page answers from it", async () => {
    const server = await startTestServer('sqlite');
    const browser = await launchChromium();
    try {
      const keys = await seedDemo(server.running.services);
      assert.ok(keys);
      const { page } = await signedInPage(browser, server, keys.operatorEmail, SIZES[0], { password: keys.operatorPassword });
      await page.goto(`${server.url}/console`);
      await page.locator('#knowledge-link').click(); // the console's nav leads here, for an admin
      const faq = page.locator('#sources > li').first();
      await faq.waitFor();
      assert.equal(await faq.locator('.source-name').textContent(), 'ACME support FAQ');
      assert.equal(await faq.locator('.badge').textContent(), 'Ready');
      await page.locator('#question').fill('do you ship to norway?');
      await page.locator('#question').press('Enter');
      await page.locator('#answer .found').waitFor();
      assert.equal(await page.locator('#answer .verdict .badge').textContent(), 'ANSWERED');
      assert.match((await page.locator('#answer .answer-text').textContent())!, /Norway included/);
      await faq.getByRole('button', { name: 'Passages of ACME support FAQ' }).click();
      await page.locator('#passages-card').waitFor();
      await page.screenshot({ path: `${SHOTS}/kpage-demo.png`, fullPage: true });
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
