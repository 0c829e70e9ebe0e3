// The designer page (/console/designer, issue 23) in Debian's Chromium with the console's CSP: a
// designer opens a bot, edits it through the generated forms, meets a problem at
// its field, previews the draft while the live bot still answers the old way, publishes, compares
// versions and rolls back; an agent gets no designer. Screenshots: designer-*.png in $DESIGNER_SHOTS or the temporary folder.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.js';
import { botFile, buttonCommand, chatOk, goTo, text } from '../support/chat-kit.js';
import { signIn } from '../support/console-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, DESKTOP, field, pageAs as openAs, PHONE, readableZoom, saveStatus, shot } from '../support/designer-kit.js';

const shopBot = () =>
  botFile(
    [
      { name: 'Welcome', actions: [text('Hello from the shop'), { type: 'buttons', text: 'What next?', buttons: [{ type: 'button', text: 'Prices', onClick: [goTo('Main', 'Prices')] }] }] },
      { name: 'Prices', actions: [text('Everything costs 5')] },
      { name: 'Hours', actions: [text('Open 9 to 5')] },
      { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
    ],
    { name: 'Shop' },
  );

for (const kind of pageDatabases()) {
  describe(`the designer page (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, shopBot(), [
      ['dee@example.org', 'Dee Designer', 'designer'],
      ['al@example.org', 'Al Agent', 'agent'],
    ]);

    const pageAs = (email: string, viewport = DESKTOP) => openAs(world.browser, world.server, email, viewport);

    /** What the live bot says after its "Prices" button, through /custom/chat. */
    async function livePrices(): Promise<string> {
      const start = await chatOk(world.server, world.tenant.botToken, {});
      const after = await chatOk(world.server, world.tenant.botToken, { UserId: start.UserId, Command: buttonCommand(start.Parts, 'Prices') });
      return after.Parts.map((p: { Text: string }) => p.Text).join(' | ');
    }
    const draftOf = async () => (await world.server.client.get(`/bots/${world.tenant.botKey}`, { token: world.tenant.accountToken })).body;
    const WELCOME_BUTTONS = '$.behaviours[0].interactions[0].actions[1].buttons';

    test('a designer edits, meets a problem, previews the draft, publishes, compares and rolls back', async () => {
      const { page, errors } = await pageAs('dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.react-flow__node-step').first().waitFor();
      await page.locator('.react-flow__edge-text').first().waitFor(); // edges are drawn once the nodes are measured
      assert.deepEqual(await page.locator('.outline .pick .name').allTextContents(), ['Welcome', 'Prices', 'Hours', 'Sorry']);
      assert.equal(await page.locator('.react-flow__node-step').count(), 4);
      assert.deepEqual(await page.locator('.react-flow__edge-text').allTextContents(), ['“Prices”']);
      assert.equal(await page.locator('.outline .pick', { hasText: 'Sorry' }).locator('.mark.fallback').count(), 1);

      // A text action edited in its form, saved with Ctrl+S.
      await page.locator('.outline .pick', { hasText: 'Prices' }).click();
      await page.locator(field('$.behaviours[0].interactions[1].actions[0].text')).fill('Everything costs 7');
      assert.equal(await page.locator('#unsaved').textContent(), '● Unsaved changes');
      await page.keyboard.press('Control+s');
      await page.locator('#unsaved', { hasText: 'Saved (draft v2)' }).waitFor();
      assert.equal((await draftOf()).behaviours[0].interactions[1].actions[0].text, 'Everything costs 7');

      // A new interaction, connected by a second button whose target is changed to it, then renamed.
      await page.getByRole('button', { name: 'Add interaction to Main' }).click();
      await page.locator(field('$.behaviours[0].interactions[4].actions[0].text')).fill('We ship worldwide');
      await page.locator('.outline .pick', { hasText: 'Welcome' }).click();
      await page.getByRole('button', { name: 'Copy action 1' }).nth(1).click(); // the button inside "buttons"
      await page.locator(field(`${WELCOME_BUTTONS}[1].text`)).fill('Shipping');
      await page.locator(`${field(`${WELCOME_BUTTONS}[1].onClick[0]`)}-target`).selectOption(JSON.stringify(['Main', 'New step']));
      await page.locator('.outline .pick', { hasText: 'New step' }).click();
      await page.locator('#interaction-name').fill('Shipping');
      await page.getByRole('button', { name: 'Rename', exact: true }).click();
      await page.locator('.outline .pick', { hasText: 'Welcome' }).click();
      assert.equal(await page.locator(`${field(`${WELCOME_BUTTONS}[1].onClick[0]`)}-target`).inputValue(), JSON.stringify(['Main', 'Shipping']));
      // the canvas draws its edges again after a rename: wait for the new label before counting them all
      await page.locator('.react-flow__edge-text', { hasText: '“Shipping”' }).waitFor();
      assert.deepEqual((await page.locator('.react-flow__edge-text').allTextContents()).sort(), ['“Prices”', '“Shipping”']);

      // A problem: an empty button text is refused at its field, and so is Publish.
      await page.locator(field(`${WELCOME_BUTTONS}[1].text`)).fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.locator(`${field(`${WELCOME_BUTTONS}[1].text`)}-problem`).waitFor();
      assert.equal(await page.locator(field(`${WELCOME_BUTTONS}[1].text`)).getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('.outline .pick', { hasText: 'Welcome' }).locator('.mark.problem').textContent(), '1 problem');
      // the console keeps a draft with problems (issue 37 item 6): saved, with them listed
      await saveStatus(page, /^Saved, with problems \(draft v\d+\): publishing waits until they are fixed\.$/);
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Publish refused' }).waitFor();
      assert.equal((await world.server.client.get(`/bots/${world.tenant.botKey}/versions`, { token: world.tenant.accountToken })).body.Result.length, 1);
      await page.screenshot({ path: shot(kind, 'problem') });
      assert.deepEqual(await seriousViolations(page), []);
      await page.locator(field(`${WELCOME_BUTTONS}[1].text`)).fill('Shipping');
      await page.keyboard.press('Control+s');
      await page.locator('#unsaved', { hasText: 'Saved (draft v4)' }).waitFor(); // v3 was the draft kept with its problem
      assert.equal(await page.locator('.problems').count(), 0);
      const saved = (await draftOf()).behaviours[0].interactions;
      assert.deepEqual(
        saved.map((x: { name: string }) => x.name),
        ['Welcome', 'Prices', 'Hours', 'Sorry', 'Shipping'],
      );
      assert.deepEqual(saved[0].actions[1].buttons[1].onClick, [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Shipping' }]);

      // The preview runs the draft; the live bot still answers the old way.
      await page.getByRole('tab', { name: 'Preview' }).click();
      await page.getByRole('button', { name: 'Start a preview conversation' }).click();
      await page.locator('.bubble.bot', { hasText: 'Hello from the shop' }).waitFor();
      await page.locator('.chat-buttons').getByRole('button', { name: 'Shipping' }).click();
      await page.locator('.bubble.bot', { hasText: 'We ship worldwide' }).waitFor();
      assert.equal(await page.locator('.bubble.bot', { hasText: 'We ship worldwide' }).locator('.from').textContent(), 'from Main › Shipping');
      assert.equal(await page.locator('.outline .pick.heard .name').textContent(), 'Shipping');
      assert.equal(await page.locator('.react-flow__node-step .step.heard .step-name').textContent(), 'Shipping');
      await page.screenshot({ path: shot(kind, 'preview') });
      assert.equal(await livePrices(), 'Everything costs 5');

      // Publish (a version number follows the draft's: v3 kept with a problem, v4 saved, v5 published); the new version is listed with who published it, and its diff shows the edits.
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published version 2.' }).waitFor();
      assert.equal(await livePrices(), 'Everything costs 7');
      await page.getByRole('tab', { name: 'Versions' }).click();
      await page.locator('.version-list li').nth(1).waitFor();
      // numbered as a person counts publishes (issue 37 item 9); the API's Version (5) is the value
      assert.match((await page.locator('.version-list li').first().textContent()) ?? '', /^Version 2 .* by Dee Designer ?live$/);
      await page.locator('#diff-from').selectOption('1');
      const published = (await world.server.client.get(`/bots/${world.tenant.botKey}/versions`, { token: world.tenant.accountToken })).body.Result as Array<{ Version: number }>;
      await page.locator('#diff-to').selectOption(String(Math.max(...published.map((v) => v.Version))));
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.locator('.change').first().waitFor();
      const changes = await page.locator('.change').evaluateAll((items) => items.map((li) => `${li.querySelector('.kind')!.textContent} ${li.querySelector('code')!.textContent}`));
      assert.deepEqual(changes, ['changed /behaviours/0/interactions/0/actions/1', 'changed /behaviours/0/interactions/1/actions/0', 'added /behaviours/0/interactions/4']);
      assert.deepEqual(await page.locator('.change .words').allTextContents(), [
        'Interaction “Welcome” (Main): button “Shipping” added',
        'Interaction “Prices” (Main): text changed from “Everything costs 5” to “Everything costs 7”',
        'Interaction “Shipping” (Main) added',
      ]);
      await page.screenshot({ path: shot(kind, 'versions') });
      assert.deepEqual(await seriousViolations(page), []);

      // Rollback publishes version 1's content again.
      // it asks first; Cancel changes nothing
      await page.getByRole('button', { name: 'Roll back to version 1' }).click();
      await page.getByRole('group', { name: 'Roll back to version 1?' }).getByRole('button', { name: 'Cancel' }).click();
      assert.equal(await livePrices(), 'Everything costs 7');
      await page.getByRole('button', { name: 'Roll back to version 1' }).click();
      await page.getByRole('group', { name: 'Roll back to version 1?' }).getByRole('button', { name: 'Roll back', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Rolled back: version 3 has the content of version 1.' }).waitFor();
      await page.locator('.version-list li', { hasText: 'Version 3' }).waitFor();
      assert.equal(await livePrices(), 'Everything costs 5');
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('a save racing an API save of the same draft loses neither: reload theirs and re-apply mine', async () => {
      const { page, errors } = await pageAs('dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.outline .pick', { hasText: 'Hours' }).click();
      await page.locator(field('$.behaviours[0].interactions[2].actions[0].text')).fill('Open 8 to 6');
      // Meanwhile someone saves the draft through the API: the Sorry text changes.
      const theirs = await draftOf();
      const version = theirs.version;
      delete theirs.version;
      theirs.behaviours[0].interactions[3].actions[0].text = 'Pardon?';
      const put = await world.server.client.put(`/bots/${world.tenant.botKey}`, theirs, { token: world.tenant.accountToken, headers: { 'if-match': String(version) } });
      assert.equal(put.status, 200, put.text);
      await page.keyboard.press('Control+s');
      await page.getByRole('alertdialog').waitFor();
      await page.screenshot({ path: shot(kind, 'conflict') });
      await page.getByRole('button', { name: 'Reload theirs and re-apply mine' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      const merged = (await draftOf()).behaviours[0].interactions;
      assert.equal(merged[2].actions[0].text, 'Open 8 to 6');
      assert.equal(merged[3].actions[0].text, 'Pardon?');
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('on a phone the designer stacks and does not scroll sideways', async () => {
      const { page, errors } = await pageAs('dee@example.org', PHONE);
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.react-flow__node-step').first().waitFor();
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'no sideways scrolling');
      await readableZoom(page);
      await page.screenshot({ path: shot(kind, 'phone') });
      await page.screenshot({ path: shot(kind, 'phone-full'), fullPage: true });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('an agent sees no designer, knowledge, broadcasts or analytics link and is refused the designer and its routes (403 ROLE_FORBIDDEN)', async () => {
      const { page } = await pageAs('al@example.org');
      await page.goto(`${world.server.url}/console`);
      await page.locator('#who-name').filter({ hasText: 'Al Agent' }).waitFor();
      for (const link of ['#designer-link', '#knowledge-link', '#broadcasts-link', '#analytics-link']) assert.equal(await page.locator(link).isHidden(), true, link);
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.getByText('Your role (agent) does not open the designer.').waitFor();
      const cookie = await signIn(world.server.client, 'al@example.org');
      for (const path of ['/draft', '/versions', '/diff?from=1&to=draft']) {
        const res = await world.server.client.get(`/console/api/bots/${world.botId}${path}`, { headers: { cookie } });
        assert.equal(res.status, 403, path);
        assert.equal(res.body.Code, 'ROLE_FORBIDDEN');
      }
      const designer = await pageAs('dee@example.org');
      await designer.page.goto(`${world.server.url}/console`);
      await designer.page.locator('#designer-link').waitFor();
      await designer.page.locator('#analytics-link').waitFor();
      await designer.page.context().close();
      await page.context().close();
    });

    test('desktop screenshot of a fresh page', async () => {
      const { page, errors } = await pageAs('dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.react-flow__node-step').first().waitFor();
      await page.screenshot({ path: shot(kind, 'desktop') });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('keyboard only: pick an interaction in the list, edit and save it, open the Bot tab and the source view, and Tab out of the editor', async () => {
      const { page, errors } = await pageAs('dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.react-flow__node-step').first().waitFor();
      /** What has the focus: a name for it, and whether it is in the source editor (a shadow root's host). */
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return { id: el?.id ?? '', text: (el?.textContent ?? '').trim(), tag: el?.tagName ?? '', inEditor: el?.classList.contains('source-editor') ?? false };
        });
      const tabTo = async (wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) => {
        for (let n = 0; n < 60; n++) {
          await page.keyboard.press('Tab');
          if (wanted(await focused())) return;
        }
        assert.fail(`Tab never reached ${what}`);
      };
      await tabTo((f) => f.tag === 'BUTTON' && f.text === 'Prices', 'the Prices entry of the list');
      await page.keyboard.press('Enter');
      await page.locator('#inspector-title', { hasText: 'Prices' }).waitFor();
      const text = field('$.behaviours[0].interactions[1].actions[0].text');
      await tabTo((f) => `#${f.id}` === text, 'the text of Prices');
      await page.keyboard.press('End');
      await page.keyboard.type(' (typed)');
      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      assert.match((await draftOf()).behaviours[0].interactions[1].actions[0].text, / \(typed\)$/);
      await tabTo((f) => f.id === 'tab-bot', 'the Bot tab');
      await page.keyboard.press('Enter');
      await page.locator('#bot-title').waitFor();
      await page.keyboard.press('Shift+Tab');
      for (let n = 0; n < 60 && (await focused()).text !== 'Source'; n++) await page.keyboard.press('Shift+Tab');
      assert.equal((await focused()).text, 'Source');
      await page.keyboard.press('Enter');
      await page.getByRole('textbox', { name: 'The draft as JSON' }).waitFor();
      await tabTo((f) => f.inEditor, 'the source editor');
      await tabTo((f) => !f.inEditor, 'out of the source editor');
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
