// An agent and its tools built in the designer's forms with the keyboard alone (issue 39): an http
// tool (request, headers, JSON Schema of its arguments in a code field, approval) and a flow tool
// (its target picked like a goTo's), added, reordered and removed; saved, and shown the same after a
// reload. A JSON Schema that is not JSON, or not an object schema, is said under its field as one
// types; a publish refused for an MCP server the bot does not have shows the problem at that tool.
// Axe-clean at 1280x800 and 390x844. Both databases, Chromium.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { botFile, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, field, pageAs, PHONE, saveStatus, shot, withoutServerFields } from '../support/designer-kit.js';

const ACTIONS = '$.behaviours[0].interactions[0].actions';
const AGENT = `${ACTIONS}[1]`;
const TOOLS = `${AGENT}.tools`;
const ORDER = { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['order'] };
const seed = () =>
  botFile([{ name: 'Start', actions: [text('Hi')] }], {
    name: 'Spokes',
    behaviours: [{ name: 'Repairs', interactions: [{ name: 'Book', start: true, actions: [text('When?')] }] }],
  });
const expectedAgent = {
  type: 'agent',
  instructions: 'Help with orders and repairs.',
  tools: [
    { type: 'flow', name: 'book_repair', description: 'Start the repair booking', behaviour: 'Repairs', interaction: 'Book' },
    {
      type: 'http',
      name: 'order_status',
      description: 'Status of an order',
      request: { method: 'GET', url: 'https://shop.example/api/orders/{{order}}', headers: { Accept: 'application/json' } },
      parameters: ORDER,
      approval: true,
    },
  ],
};

/** Keyboard only: focus a control, then type into it (a closed <select> picks by its options' words). */
const typeInto = async (page: Page, selector: string, words: string) => {
  await page.locator(selector).focus();
  await page.keyboard.type(words);
};
/** Focus a button or box and press a key on it. */
const press = async (page: Page, selector: string, key = 'Enter') => {
  await page.locator(selector).focus();
  await page.keyboard.press(key);
};
/** Adds a tool of a kind with the keyboard: the kind's words in the list, Tab to "Add tool", Enter. */
const addTool = async (page: Page, words: string) => {
  await typeInto(page, `${field(TOOLS)}-add`, words);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add tool');
  await page.keyboard.press('Enter');
};
/** Replaces a code field's text, as a paste would. */
const writeCode = async (page: Page, path: string, code: string) => {
  await page.locator(`${field(path)} .cm-content`).focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(code);
};
const problemOf = (page: Page, path: string) => page.locator(`${field(path)}-problem`);

for (const kind of pageDatabases()) {
  describe(`an agent's tools in the designer (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, seed(), [['dee@example.org', 'Dee Designer', 'designer']]);
    const draftOf = async () => (await world.server.client.get(`/bots/${world.tenant.botKey}`, { token: world.tenant.accountToken })).body;

    test('an agent with an http and a flow tool, made with the keyboard, is saved and shown the same after a reload', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('#inspector-title', { hasText: 'Start' }).waitFor();

      await typeInto(page, `${field(ACTIONS)}-add`, 'agent');
      await press(page, `${field(ACTIONS)}-add-button`);
      await typeInto(page, field(`${AGENT}.instructions`), 'Help with orders and repairs.');

      await addTool(page, 'Call a web');
      assert.equal(await page.locator(`${field(`${TOOLS}[0]`)}-kind`).inputValue(), 'http');
      await typeInto(page, field(`${TOOLS}[0].name`), 'order_status');
      await typeInto(page, field(`${TOOLS}[0].description`), 'Status of an order');
      assert.equal(await page.locator(field(`${TOOLS}[0].request.method`)).inputValue(), 'GET');
      await typeInto(page, field(`${TOOLS}[0].request.url`), 'https://shop.example/api/orders/{{order}}');
      await typeInto(page, field(`${TOOLS}[0].request.headers`), 'Accept: application/json');

      // The arguments' JSON Schema: its problems are said under the field as one types.
      const PARAMETERS = `${TOOLS}[0].parameters`;
      await writeCode(page, PARAMETERS, '{ "type": "string" }');
      await problemOf(page, PARAMETERS).filter({ hasText: 'The arguments are an object: the schema needs "type": "object".' }).waitFor();
      await writeCode(page, PARAMETERS, '{ "type": "object", ');
      await problemOf(page, PARAMETERS)
        .filter({ hasText: /^Not JSON: / })
        .waitFor();
      await page.locator(field(PARAMETERS)).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot(kind, 'agent-schema-problem-1280') });
      assert.equal(await page.locator(`${field(PARAMETERS)} .cm-content`).getAttribute('aria-invalid'), 'true');
      await writeCode(page, PARAMETERS, JSON.stringify(ORDER, null, 2));
      await problemOf(page, PARAMETERS).waitFor({ state: 'detached' });
      await press(page, field(`${TOOLS}[0].approval`), 'Space');

      await addTool(page, 'Go to a flow');
      assert.equal(await page.locator(`${field(`${TOOLS}[1]`)}-kind`).inputValue(), 'flow');
      await typeInto(page, field(`${TOOLS}[1].name`), 'book_repair');
      await typeInto(page, field(`${TOOLS}[1].description`), 'Start the repair booking');
      await typeInto(page, `${field(`${TOOLS}[1]`)}-target`, 'Repairs');
      assert.equal(await page.locator(`${field(`${TOOLS}[1]`)}-target`).inputValue(), JSON.stringify(['Repairs', 'Book']));

      // A third tool added and removed; the flow tool moved first.
      await addTool(page, 'Search');
      assert.equal(await page.locator(`${field(`${TOOLS}[2]`)}-kind`).inputValue(), 'knowledge');
      await press(page, 'button[aria-label="Remove tool 3"]');
      await page.locator(`${field(`${TOOLS}[2]`)}-kind`).waitFor({ state: 'detached' });
      await press(page, 'button[aria-label="Move tool 2 up"]');
      assert.equal(await page.locator(`${field(`${TOOLS}[0]`)}-kind`).inputValue(), 'flow');

      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      assert.deepEqual(withoutServerFields((await draftOf()).behaviours[0].interactions[0].actions[1]), expectedAgent);
      await page.locator(`${field(`${TOOLS}[0]`)}-kind`).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot(kind, 'agent-tools-1280') });
      assert.deepEqual(await seriousViolations(page), []);

      // Opened again, the forms show what was saved.
      await page.reload();
      await page.locator('#inspector-title', { hasText: 'Start' }).waitFor();
      assert.equal(await page.locator(`${field(`${TOOLS}[0]`)}-target`).inputValue(), JSON.stringify(['Repairs', 'Book']));
      assert.equal(await page.locator(field(`${TOOLS}[1].name`)).inputValue(), 'order_status');
      assert.equal(await page.locator(field(`${TOOLS}[1].request.url`)).inputValue(), 'https://shop.example/api/orders/{{order}}');
      assert.equal(await page.locator(field(`${TOOLS}[1].request.headers`)).inputValue(), 'Accept: application/json');
      assert.equal(await page.locator(field(`${TOOLS}[1].approval`)).isChecked(), true);
      const code = await page.locator(`${field(`${TOOLS}[1].parameters`)} .cm-content`);
      await code.locator('.cm-line').first().waitFor();
      assert.deepEqual(JSON.parse((await code.locator('.cm-line').allTextContents()).join('\n')), ORDER);

      // Publish checks what a save cannot: an MCP tool naming a server the bot does not have is
      // refused, and the server's problem is shown under that tool's field.
      await addTool(page, 'Tools of an MCP');
      await typeInto(page, field(`${TOOLS}[2].server`), 'crm');
      await press(page, 'button.publish');
      const refused = problemOf(page, `${TOOLS}[2].server`);
      await refused.filter({ hasText: "the bot has no MCP server named 'crm'" }).waitFor();
      await refused.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot(kind, 'agent-publish-refused-1280') });
      assert.deepEqual((await world.server.client.get(`/bots/${world.tenant.botKey}/versions`, { token: world.tenant.accountToken })).body.Result.length, 1);
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('at 390x844 the tools are usable and axe-clean', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', PHONE);
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator(`${field(`${TOOLS}[1].parameters`)} .cm-content`).waitFor();
      await page.locator(`${field(`${TOOLS}[1]`)}-kind`).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot(kind, `agent-tools-${PHONE.width}`) });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0);
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
