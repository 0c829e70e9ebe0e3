// The designer's bot-level panel and its structural edits (issue 23): settings, default variables,
// bot-wide triggers, intents and entities with their examples, the knowledge section and link;
// renaming an interaction or a behaviour renames every goTo naming it (buttons, triggers, other
// behaviours); deleting a behaviour; adding, removing, reordering and duplicating actions.
// Checked on the saved draft.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.js';
import { botFile, goTo, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, field, formOf, pageAs, saveStatus, shot, withoutServerFields } from '../support/designer-kit.js';

const seed = () =>
  botFile(
    [
      { name: 'Welcome', actions: [text('One'), text('Two'), text('Three'), { type: 'buttons', text: 'Pick', buttons: [{ type: 'button', text: 'Prices', onClick: [goTo('Main', 'Prices')] }] }] },
      { name: 'Prices', actions: [text('Five'), goTo('Orders', 'Track')] },
    ],
    {
      name: 'Panels',
      triggers: [{ match: 'help', actions: [goTo('Orders', 'Track')] }],
      behaviours: [
        { name: 'Orders', interactions: [{ name: 'Track', start: true, actions: [text('Your order?'), goTo('Main', 'Prices')] }] },
        { name: 'Spare', interactions: [{ name: 'Start', start: true, actions: [goTo('Orders')] }] },
      ],
    },
  );

for (const kind of pageDatabases()) {
  describe(`the designer's bot panel, renames and action tools (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, seed(), [['dee@example.org', 'Dee Designer', 'designer']]);

    test('renames follow every reference, a behaviour is deleted, actions are reordered, and the bot-level parts are edited', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      const f = formOf(page);
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.outline .pick').first().waitFor();

      // Actions: move "Three" up twice, duplicate "One", remove "Two".
      const welcome = '$.behaviours[0].interactions[0].actions';
      await page.getByRole('button', { name: 'Move action 3 up' }).click();
      await page.getByRole('button', { name: 'Move action 2 up' }).click();
      await page.getByRole('button', { name: 'Copy action 2 (duplicate it)' }).click();
      await page.getByRole('button', { name: 'Remove action 4' }).click();
      assert.deepEqual(await page.locator(`${field(welcome)}-list > li > .card-action > header .hint`).allTextContents(), ['Three', 'One', 'One', 'Pick']);

      // Renaming an interaction: the button, the other behaviour's goTo follow.
      await page.locator('.outline .pick', { hasText: 'Prices' }).click();
      await page.locator('#interaction-name').fill('Costs');
      await page.getByRole('button', { name: 'Rename', exact: true }).click();
      await page.locator('.outline .pick', { hasText: 'Costs' }).waitFor();

      // The bot panel: rename a behaviour, delete another, and the bot-wide parts.
      await page.getByRole('tab', { name: 'Bot' }).click();
      await page.locator('#behaviour-1-name').fill('Shipping');
      await page.getByRole('button', { name: 'Rename Orders' }).click();
      await page.getByRole('button', { name: 'Delete behaviour Spare' }).click();
      await page.getByRole('group', { name: 'Spare' }).waitFor({ state: 'detached' });
      await f.fill('$.description', 'A shop');
      await page.locator(field('$.settings.enableTypeSpeed')).check();
      await f.fill('$.variables', 'plan: free\ncountry: NO');
      await f.fill('$.triggers[0].match', 'help|support');
      await page.locator(`${field('$.triggers')}-add-item`).click();
      await f.fill('$.triggers[1].intent', 'refund');
      await f.add('$.triggers[1].actions', 'text');
      await f.fill('$.triggers[1].actions[0].text', 'Refunds take 5 days.');
      await f.choose('$.nlp.language', 'en');
      await page.locator(`${field('$.nlp.intents')}-add-item`).click();
      await f.fill('$.nlp.intents[0].name', 'refund');
      await f.fill('$.nlp.intents[0].examples', 'I want my money back\nrefund please');
      await page.locator(`${field('$.nlp.entities')}-add-item`).click();
      await f.fill('$.nlp.entities[0].name', 'colour');
      await f.fill('$.nlp.entities[0].values', 'red: crimson, scarlet\nblue: navy');
      await page.locator(field('$.knowledge.beforeFallback')).check();
      assert.equal(await page.getByRole('link', { name: "The bot's knowledge sources" }).getAttribute('href'), `/console/knowledge?bot=${encodeURIComponent(world.botId)}`);
      await page.screenshot({ path: shot(kind, 'bot-panel') });
      assert.deepEqual(await seriousViolations(page), []);

      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      const saved = withoutServerFields((await world.server.client.get(`/bots/${world.tenant.botKey}`, { token: world.tenant.accountToken })).body) as any;
      assert.deepEqual(
        saved.behaviours.map((b: { name: string }) => b.name),
        ['Main', 'Shipping'],
      );
      assert.deepEqual(saved.behaviours[0].interactions[0].actions, [
        text('Three'),
        text('One'),
        text('One'),
        { type: 'buttons', text: 'Pick', buttons: [{ type: 'button', text: 'Prices', onClick: [goTo('Main', 'Costs')] }] },
      ]);
      assert.deepEqual(saved.behaviours[0].interactions[1], { name: 'Costs', actions: [text('Five'), goTo('Shipping', 'Track')] });
      assert.deepEqual(saved.behaviours[1].interactions[0].actions, [text('Your order?'), goTo('Main', 'Costs')]);
      assert.equal(saved.description, 'A shop');
      assert.equal(saved.settings.enableTypeSpeed, true);
      assert.deepEqual(saved.variables, { plan: 'free', country: 'NO' });
      assert.deepEqual(saved.triggers, [
        { match: 'help|support', actions: [goTo('Shipping', 'Track')] },
        { intent: 'refund', actions: [text('Refunds take 5 days.')] },
      ]);
      assert.deepEqual(saved.nlp, {
        language: 'en',
        intents: [{ name: 'refund', examples: ['I want my money back', 'refund please'] }],
        entities: [{ name: 'colour', values: { red: ['crimson', 'scarlet'], blue: ['navy'] } }],
      });
      assert.deepEqual(saved.knowledge, { beforeFallback: true });
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('the page checks as one types: an emptied required text and goTo targets left dangling by a delete show at their fields and nodes, and Publish is refused without asking the server', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      const writes: string[] = [];
      page.on('request', (request) => {
        if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
      });
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.outline .pick').first().waitFor();
      const button = '$.behaviours[0].interactions[0].actions[3].buttons[0]';
      await page.locator(field(`${button}.text`)).fill('');
      assert.equal(await page.locator(`${field(`${button}.text`)}-problem`).textContent(), 'must not be empty');
      assert.equal(await page.locator(field(`${button}.text`)).getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('.outline .pick', { hasText: 'Welcome' }).locator('.mark.problem').textContent(), '1 problem');
      await page.locator(field(`${button}.text`)).fill('Prices');
      await page.locator('.problems').waitFor({ state: 'detached' });

      // Deleting Costs leaves the button's goTo and the Shipping behaviour's goTo pointing nowhere.
      await page.locator('.outline .pick', { hasText: 'Costs' }).click();
      await page.getByRole('button', { name: 'Delete interaction' }).click();
      await page.locator('.outline .pick', { hasText: 'Welcome' }).click();
      const missing = "goTo target: behaviour 'Main' has no interaction named 'Costs'";
      assert.equal(await page.locator(`${field(`${button}.onClick[0].interaction`)}-problem`).textContent(), missing);
      assert.match(await page.locator(`${field(`${button}.onClick[0]`)}-target`).inputValue(), /Costs/);
      assert.equal(await page.locator('.outline .pick', { hasText: 'Track' }).locator('.mark.problem').textContent(), '1 problem');
      assert.equal(await page.locator('.react-flow__node-step .step.has-problem').count(), 2);
      await page.getByRole('button', { name: 'Publish' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Publish refused: the draft has 2 problems; fix them first \(see the list of problems\)\.$/ })
        .waitFor();
      assert.deepEqual(writes, [], 'nothing was sent to the server');
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.locator('.problems').waitFor({ state: 'detached' });
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
