// The designer's source view, undo and conflicts (issue 23): the whole draft as JSON in CodeMirror,
// checked and completed from the bot schema, is the same draft as the forms (an edit in one shows in
// the other, page Undo reverts it); Ctrl+Z in a text field is the field's own undo, not the page's;
// a save that lost a race shows both drafts side by side and lets one choose, losing nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.js';
import { botFile, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, field, pageAs, saveStatus, shot } from '../support/designer-kit.js';

const seed = () =>
  botFile(
    [
      { name: 'Hello', actions: [text('Hi')] },
      { name: 'Hours', actions: [text('Open 9 to 5')] },
    ],
    { name: 'Source' },
  );
const HELLO_TEXT = '$.behaviours[0].interactions[0].actions[0].text';
const HOURS_TEXT = '$.behaviours[0].interactions[1].actions[0].text';

for (const kind of pageDatabases()) {
  describe(`the designer's source view, undo and conflicts (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, seed(), [['dee@example.org', 'Dee Designer', 'designer']]);
    const draftOf = async () => (await world.server.client.get(`/bots/${world.tenant.botKey}`, { token: world.tenant.accountToken })).body;

    test('the source view is the draft as JSON, checked and completed from the bot schema, and the same draft as the forms', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.outline .pick').first().waitFor();
      await page.getByRole('button', { name: 'Source' }).click();
      const editor = page.getByRole('textbox', { name: 'The draft as JSON' });
      await editor.waitFor();
      assert.equal(await page.getByRole('button', { name: 'Source' }).getAttribute('aria-pressed'), 'true');
      const { version: _v, ...saved } = await draftOf();
      const lines = await page.locator('.cm-line').allTextContents();
      assert.deepEqual(lines.slice(0, 3), ['{', '  "format": "colloquy/bot@1",', '  "name": "Source",']);

      // Completion: the bot's top-level fields, from the schema.
      await editor.click();
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText('{\n  "');
      await page.keyboard.press('Control+Space');
      const options = page.locator('.cm-tooltip-autocomplete li');
      await options.first().waitFor();
      const offered = await options.allTextContents();
      for (const name of ['behaviours', 'settings', 'variables', 'nlp'])
        assert.ok(
          offered.some((o) => o.startsWith(name)),
          `${name} offered in ${offered.join(', ')}`,
        );
      await page.keyboard.press('Escape');

      // Validation: an action type the registry does not have is marked.
      const wrong = structuredClone(saved);
      wrong.behaviours[0].interactions[0].actions[0] = { type: 'txet', text: 'Hi' };
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(JSON.stringify(wrong, null, 2));
      await page.locator('.cm-lintRange-error').first().waitFor();

      // An edit of the text is an edit of the draft: the form shows it, Save stores it, page Undo reverts it.
      const right = structuredClone(saved);
      right.behaviours[0].interactions[0].actions[0].text = 'Hello from the source';
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(JSON.stringify(right, null, 2));
      await page.locator('.cm-lintRange-error').first().waitFor({ state: 'detached' });
      await page.locator(field(HELLO_TEXT)).filter({ hasText: 'Hello from the source' }).waitFor();
      await page.screenshot({ path: shot(kind, 'source') });
      assert.deepEqual(await seriousViolations(page), []);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      assert.equal((await draftOf()).behaviours[0].interactions[0].actions[0].text, 'Hello from the source');
      // Page undo goes back through what the source applied: the mistyped type, then the first text.
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.locator('.cm-line', { hasText: '"type": "txet"' }).waitFor();
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.locator('.cm-line', { hasText: '"text": "Hi"' }).waitFor();
      assert.equal(await page.locator(field(HELLO_TEXT)).inputValue(), 'Hi');
      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      assert.equal((await draftOf()).behaviours[0].interactions[0].actions[0].text, 'Hi');
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test("Ctrl+Z in a text field is the field's own undo; outside the fields it undoes the last page edit", async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.outline .pick', { hasText: 'Hours' }).click();
      const hours = page.locator(field(HOURS_TEXT));
      await hours.click();
      await page.keyboard.press('End');
      await page.keyboard.type(', Sundays closed');
      await page.getByRole('button', { name: 'Add action' }).click(); // a page edit after the typing
      const cards = page.locator(`${field('$.behaviours[0].interactions[1].actions')}-list > li`);
      assert.equal(await cards.count(), 2);
      await hours.focus();
      await page.keyboard.press('Control+z');
      assert.equal(await cards.count(), 2, 'the page edit made after the typing is still there');
      assert.equal(await hours.inputValue(), 'Open 9 to 5, Sundays close', 'the field undid its last keystroke');
      // Out of the fields, Ctrl+Z undoes page edits, newest first: the field's undo, the added
      // action, then the typing as a whole (keystrokes in one field are one page edit).
      await page.locator('h1').click();
      await page.keyboard.press('Control+z');
      assert.equal(await hours.inputValue(), 'Open 9 to 5, Sundays closed');
      assert.equal(await cards.count(), 2);
      await page.keyboard.press('Control+z');
      await cards.nth(1).waitFor({ state: 'detached' });
      await page.keyboard.press('Control+z');
      assert.equal(await hours.inputValue(), 'Open 9 to 5');
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('a save that lost a race compares both drafts side by side: take theirs (mine one Undo away), or keep mine', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      const apiSave = async (change: (bot: any) => void) => {
        const theirs = await draftOf();
        const version = theirs.version;
        delete theirs.version;
        change(theirs);
        const put = await world.server.client.put(`/bots/${world.tenant.botKey}`, theirs, { token: world.tenant.accountToken, headers: { 'if-match': String(version) } });
        assert.equal(put.status, 200, put.text);
      };
      await page.locator('.outline .pick', { hasText: 'Hours' }).click();
      await page.locator(field(HOURS_TEXT)).fill('Open 8 to 6');
      await apiSave((bot) => {
        bot.behaviours[0].interactions[0].actions[0].text = 'Welcome!';
      });
      await page.keyboard.press('Control+s');
      await page.getByRole('alertdialog').waitFor();
      await page.getByRole('button', { name: 'Compare both' }).click();
      await page.getByRole('list', { name: 'Their draft and yours, part by part' }).waitFor();
      assert.deepEqual(await page.locator('.both h3').allTextContents(), ['Main › Hello', 'Main › Hours']);
      assert.match((await page.getByRole('region', { name: 'Theirs: Main › Hello' }).textContent()) ?? '', /Welcome!/);
      assert.match((await page.getByRole('region', { name: 'Yours: Main › Hours' }).textContent()) ?? '', /Open 8 to 6/);
      await page.screenshot({ path: shot(kind, 'compare') });
      assert.deepEqual(await seriousViolations(page), []);

      await page.getByRole('button', { name: 'Take theirs (yours stays in Undo)' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      assert.equal(await page.locator(field(HOURS_TEXT)).inputValue(), 'Open 9 to 5');
      await page.getByRole('button', { name: 'Undo' }).click();
      assert.equal(await page.locator(field(HOURS_TEXT)).inputValue(), 'Open 8 to 6');

      // Another race: this time mine is kept over theirs, by choice.
      await apiSave((bot) => {
        bot.behaviours[0].interactions[1].actions[0].text = 'Closed';
      });
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('button', { name: 'Compare both' }).click();
      await page.getByRole('button', { name: 'Keep mine (save over theirs)' }).click();
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      const after = (await draftOf()).behaviours[0].interactions;
      assert.equal(after[1].actions[0].text, 'Open 8 to 6');
      assert.equal(after[0].actions[0].text, 'Hi', 'theirs of the first race was not taken: Undo brought mine back');
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
