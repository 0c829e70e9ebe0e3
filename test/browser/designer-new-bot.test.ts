// Issue 37 "New bot": in the designer page a support lead makes a bot from a template, with the
// keyboard alone, then duplicates, renames and deletes bots; each dialog asks before it acts and
// is axe-clean, at 1280×800 and 390×844. Screenshots: designer-<db>-new-bot-*.png in $DESIGNER_SHOTS.
// And "Add behaviour" asks for the name (Enter adds, Escape cancels) and selects the new behaviour,
// whose "Add action" button says where it adds (issue 37), by keyboard alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.js';
import { botFile, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, DESKTOP, pageAs, PHONE, shot } from '../support/designer-kit.js';

for (const kind of pageDatabases()) {
  describe(`the designer makes bots without a terminal (Chromium, ${kind})`, () => {
    const world = designerWorld(
      kind,
      botFile(
        [
          { name: 'Hello', actions: [text('Hi')] },
          { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
        ],
        { name: 'Demo bot' },
      ),
      [['dee@example.org', 'Dee Designer', 'designer']],
    );
    const picked = (page: import('playwright-core').Page) => page.locator('#bot option:checked').textContent();
    const botNames = async () => ((await world.server.client.get('/bots', { token: world.tenant.accountToken })).body.Result as { Name: string }[]).map((b) => b.Name).sort();

    for (const viewport of [DESKTOP, PHONE]) {
      test(`new bot from the FAQ template with the keyboard alone, then duplicate, rename, delete (${viewport.width}px)`, async () => {
        const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', viewport);
        await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
        await page.locator('.react-flow__node-step').first().waitFor();
        const suffix = viewport.width;

        // Keyboard only: Tab to "New bot", type a name, arrow to the template, Enter to create.
        const newBot = page.getByRole('button', { name: 'New bot' });
        for (let i = 0; i < 40 && !(await newBot.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'New bot' });
        await dialog.getByRole('radio', { name: /Support FAQ/ }).waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'bot-name', 'the name field has the focus');
        await page.keyboard.type(`Bike shop ${suffix}`);
        assert.equal(await dialog.getByRole('radio', { name: /Support FAQ/ }).isChecked(), true, 'the FAQ template is offered first');
        await page.screenshot({ path: shot(kind, `new-bot-dialog-${suffix}`) });
        assert.deepEqual(await seriousViolations(page), []);
        await page.keyboard.press('Enter');
        await page.getByRole('status').getByText(`Made Bike shop ${suffix}: it is published and can chat.`).waitFor();
        assert.equal(await picked(page), `Bike shop ${suffix}`);
        await page.locator('.outline .pick', { hasText: 'Ask for a person' }).waitFor();
        await page.screenshot({ path: shot(kind, `new-bot-made-${suffix}`) });

        await page.getByRole('button', { name: 'Duplicate bot', exact: true }).click();
        const duplicate = page.getByRole('dialog', { name: 'Duplicate bot' });
        assert.equal(await duplicate.getByLabel('Name').inputValue(), `Copy of Bike shop ${suffix}`);
        await duplicate.getByRole('button', { name: 'Duplicate' }).click();
        await page.getByRole('status').getByText(`Made Copy of Bike shop ${suffix}: it is published and can chat.`).waitFor();

        await page.getByRole('button', { name: 'Rename bot', exact: true }).click();
        const rename = page.getByRole('dialog', { name: 'Rename bot' });
        await rename.getByLabel('Name').fill('   ');
        await rename.getByRole('button', { name: 'Rename' }).click();
        await rename.getByRole('alert').getByText('Give the bot a name of at most 100 characters.').waitFor();
        await rename.getByLabel('Name').fill(`Second desk ${suffix}`);
        await rename.getByRole('button', { name: 'Rename' }).click();
        await page.getByRole('status').getByText(`Renamed to Second desk ${suffix}.`).waitFor();
        assert.equal(await picked(page), `Second desk ${suffix}`);

        await page.getByRole('button', { name: 'Delete bot', exact: true }).click();
        const remove = page.getByRole('dialog', { name: 'Delete bot' });
        await remove.getByText('This cannot be undone.', { exact: false }).waitFor();
        await page.screenshot({ path: shot(kind, `new-bot-delete-${suffix}`) });
        assert.deepEqual(await seriousViolations(page), []);
        await page.keyboard.press('Escape');
        assert.equal(await remove.isVisible(), false, 'Escape cancels');
        assert.ok((await botNames()).includes(`Second desk ${suffix}`), 'nothing deleted on cancel');
        await page.getByRole('button', { name: 'Delete bot', exact: true }).click();
        await remove.getByRole('button', { name: 'Delete bot' }).click();
        await page.getByRole('status').getByText(`Deleted Second desk ${suffix}.`).waitFor();
        assert.equal((await botNames()).includes(`Second desk ${suffix}`), false);
        assert.ok((await botNames()).includes(`Bike shop ${suffix}`));
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    for (const viewport of [DESKTOP, PHONE]) {
      test(`"Add behaviour" asks for its name and selects it, with the keyboard alone (${viewport.width}px)`, async () => {
        const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', viewport);
        await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
        await page.locator('.outline .pick').first().waitFor();
        assert.equal(await page.getByRole('button', { name: /^Add action to/ }).textContent(), 'Add action to Hello');
        const add = page.getByRole('button', { name: 'Add behaviour' });
        for (let i = 0; i < 60 && !(await add.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'new-behaviour-name', 'the name field has the focus');
        await page.keyboard.type('Returns');
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('#new-behaviour-name').count(), 0, 'Escape cancels');
        await page.waitForFunction(() => document.activeElement?.textContent === 'Add behaviour');
        assert.deepEqual(await page.locator('.outline h3').allTextContents(), ['Mainstart']);

        await page.keyboard.press('Enter');
        await page.keyboard.type('main');
        await page.keyboard.press('Enter');
        await page.getByRole('alert').getByText('Another behaviour has that name.').waitFor();
        await page.keyboard.press('Control+a');
        await page.keyboard.type('Returns');
        await page.screenshot({ path: shot(kind, `add-behaviour-name-${viewport.width}`) });
        assert.deepEqual(await seriousViolations(page), []);
        await page.keyboard.press('Enter');
        // The new behaviour is there and selected: its start step has the focus and the side panel.
        await page.waitForFunction(() => document.activeElement?.getAttribute('data-place') === '1/0');
        assert.deepEqual(await page.locator('.outline h3').allTextContents(), ['Mainstart', 'Returns']);
        assert.equal(await page.locator('#inspector-title').textContent(), 'Returns › Start');
        assert.equal(await page.getByRole('button', { name: /^Add action to/ }).textContent(), 'Add action to Start');
        await page.screenshot({ path: shot(kind, `add-behaviour-added-${viewport.width}`) });
        assert.deepEqual(await seriousViolations(page), []);
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  });
}
