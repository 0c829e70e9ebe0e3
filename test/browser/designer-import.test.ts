// Issue 40 "Import a bot…": in the designer, a designer brings a Typebot export in with the
// keyboard alone: picks the file, reads the preview of the report (what will be made, what is not
// carried over and why), imports, sees the report with links to the interactions to finish by
// hand, and follows one into the designer; a broken file shows its error in words beside the file
// field. Each step axe-clean, at 1280×800 and 390×844. Screenshots: /work/shots/importui/ (or
// $IMPORT_SHOTS).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { botFile, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, DESKTOP, pageAs, PHONE } from '../support/designer-kit.js';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/imports/typebot-constructs.json');
const shots = process.env.IMPORT_SHOTS ?? (fs.existsSync('/work/shots') ? '/work/shots/importui' : os.tmpdir());
fs.mkdirSync(shots, { recursive: true });

/** Tabs (or Shift+Tabs) until `locator` has the focus (at most 60 presses). */
async function tabTo(page: Page, locator: ReturnType<Page['locator']>, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < 60 && !(await locator.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press(key);
  assert.equal(await locator.evaluate((e) => e === document.activeElement), true, 'reached with Tab');
}

/** Opens the file field's chooser with the Space key and gives it `file`. */
async function chooseWithKeyboard(page: Page, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles(file);
}

for (const kind of pageDatabases()) {
  describe(`the designer imports a bot from another platform (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, botFile([{ name: 'Hello', actions: [text('Hi')] }], { name: 'Demo bot' }), [['dee@example.org', 'Dee Designer', 'designer']]);

    for (const viewport of [DESKTOP, PHONE]) {
      test(`a Typebot export: preview, import, report, follow a link; a broken file says why (${viewport.width}px)`, async () => {
        const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', viewport);
        // Playwright turns on file-chooser interception when a listener exists; one from the start
        // makes sure it is on before Space opens the chooser (a waitForEvent set up just before the
        // key can lose that race, and the chooser then opens natively and is never reported)
        page.on('filechooser', () => undefined);
        const shot = (name: string) => page.screenshot({ path: path.join(shots, `${kind}-${name}-${viewport.width}.png`) });
        await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
        await page.locator('.outline .pick').first().waitFor();

        await tabTo(page, page.getByRole('button', { name: 'Import a bot…' }));
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Import a bot' });
        await dialog.waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-format', 'the first field has the focus');
        assert.equal(await dialog.getByLabel('Made with').inputValue(), '', 'the format is detected unless chosen');
        await shot('picker-open');
        assert.deepEqual(await seriousViolations(page), []);

        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-file');
        await chooseWithKeyboard(page, fixture);
        await tabTo(page, dialog.getByRole('button', { name: 'Preview' }));
        await page.keyboard.press('Enter');
        await dialog.getByRole('heading', { name: 'Preview: “Constructs”, a Typebot export' }).waitFor();
        assert.equal(await dialog.locator('.import-report > p').first().textContent(), 'Will create: 7 interactions, 25 actions, 5 variables.');
        assert.deepEqual(await dialog.locator('.import-check li').allTextContents(), ['Big order', 'Small order']);
        assert.equal(await dialog.locator('.import-check a').count(), 0, 'nothing to link to before the import');
        const skipped = dialog.getByRole('region', { name: 'Not carried over (2)' });
        assert.deepEqual(await skipped.locator('.import-path').allTextContents(), [
          'typebot-constructs.json: $.groups[2].blocks[0].options.responseVariableMapping[1]',
          'typebot-constructs.json: $.groups[4].blocks[0]',
        ]);
        assert.match((await skipped.locator('li').nth(1).textContent()) ?? '', /^a "Script" block: Colloquy has no such step: finish it by hand/);
        const before = (await world.server.client.get('/bots', { token: world.tenant.accountToken })).body.Result.length;
        await shot('preview');
        assert.deepEqual(await seriousViolations(page), []);

        // The same button now says Import, and keeps the focus.
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Import');
        await page.keyboard.press('Enter');
        const report = page.getByRole('dialog', { name: 'Imported Constructs' });
        await report.waitFor();
        await page.getByRole('status').getByText('Imported Constructs from Typebot: it is published and can chat.').waitFor();
        assert.equal((await world.server.client.get('/bots', { token: world.tenant.accountToken })).body.Result.length, before + 1, 'one bot made');
        assert.equal(await page.locator('#bot option:checked').textContent(), 'Constructs', 'the new bot is opened');
        assert.equal(await report.locator('.import-report > p').first().textContent(), 'Created: 7 interactions, 25 actions, 5 variables.');
        await page.locator('.outline .pick', { hasText: 'Big order' }).waitFor();
        await shot('report');
        assert.deepEqual(await seriousViolations(page), []);

        const link = report.getByRole('region', { name: 'Interactions to finish by hand' }).getByRole('link', { name: 'Big order' });
        await tabTo(page, link);
        await page.keyboard.press('Enter');
        await page.locator('#inspector-title', { hasText: 'Main › Big order' }).waitFor();
        assert.equal(await report.isVisible(), false, 'the report closes on the way');
        await page.waitForFunction(() => document.activeElement?.closest('.outline') !== null && document.activeElement?.textContent?.includes('Big order'));

        // A broken export: refused with its reason beside the file field; nothing is made.
        const broken = path.join(os.tmpdir(), `broken-typebot-${viewport.width}.json`);
        fs.writeFileSync(broken, '{"version": "6.1", "groups": [');
        // back up from the outline to the bot picker's button
        await tabTo(page, page.getByRole('button', { name: 'Import a bot…' }), 'Shift+Tab');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id === 'import-format');
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-file', 'a fresh form: format, then the file');
        await chooseWithKeyboard(page, broken);
        await tabTo(page, dialog.getByRole('button', { name: 'Preview' }));
        await page.keyboard.press('Enter');
        const alert = dialog.getByRole('alert');
        await alert.waitFor();
        assert.match((await alert.textContent()) ?? '', /^The export is broken \(in broken-typebot-\d+\.json\): invalid JSON: /);
        assert.equal(await dialog.getByLabel('Export file').getAttribute('aria-invalid'), 'true');
        assert.equal(await dialog.locator('.import-preview').count(), 0);
        await shot('error');
        assert.deepEqual(await seriousViolations(page), []);
        await page.keyboard.press('Escape');
        assert.equal(await dialog.isVisible(), false, 'Escape closes it');
        assert.equal((await world.server.client.get('/bots', { token: world.tenant.accountToken })).body.Result.length, before + 1, 'nothing more made');
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  });
}
