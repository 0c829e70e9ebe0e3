// Every action type of the registry can be made and edited through the designer's generated forms
// (issue 23, "Done when"): starting from a one-step bot, the page builds a bot that uses each type
// at least once, nested operations included (onClick, then/else, onSuccess/onGiveUp, onError,
// onNoAnswer, buttons, carousel cards), and the saved draft equals the expected bot file. Both
// databases, Chromium at 1280x800. And the forms speak plain words (issue 37): no schema words
// ("one of a list", endsWith, simplified auth), yes/no as a box, a text with its variations as one
// field; at 1280x800 and 390x844, axe-core clean.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { seriousViolations } from '../support/axe.js';
import { anotherBot, designerWorld, DESKTOP, field, formOf, pageAs, PHONE, saveStatus, shot, withoutServerFields } from '../support/designer-kit.js';

const START = '$.behaviours[0].interactions[0].actions';
const MENU = '$.behaviours[0].interactions[1].actions';
const toMenu = { type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Menu' };

/** What the page must have saved (ids the server gives buttons and inputs are left out). */
const expected = () => ({
  ...botFile([{ name: 'Start', actions: [] }], { name: 'Every type' }),
  // what the server fills in on its own for a bot that leaves them out
  description: '',
  settings: {
    enableTypeSpeed: false,
    wordsPerMinute: 200,
    simplifiedAuth: false,
    channels: { custom: { includeAllChannels: false, webhookUrl: null }, web: { allowedOrigins: [], enabled: false } },
  },
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        {
          name: 'Start',
          start: true,
          actions: [
            { type: 'text', texts: ['Hello there', 'Hi there'] },
            { type: 'image', url: 'https://example.org/a.png', caption: 'A picture' },
            { type: 'video', url: 'https://example.org/a.mp4' },
            { type: 'audio', url: 'https://example.org/a.mp3' },
            { type: 'file', url: 'https://example.org/a.pdf', caption: 'The leaflet' },
            {
              type: 'buttons',
              text: 'Choose',
              buttons: [
                { type: 'button', text: 'Menu', onClick: [toMenu] },
                { type: 'link', text: 'Site', url: 'https://example.org/' },
              ],
            },
            { type: 'carousel', variable: 'card', cards: [{ title: 'Card', subtitle: 'Sub', buttons: [{ type: 'button', text: 'Pick', onClick: [{ type: 'setTag', tag: 'picked' }] }] }] },
            { type: 'delay', ms: 500 },
            { ...toMenu, cancelFurtherExecution: true },
          ],
        },
        {
          name: 'Menu',
          actions: [
            { type: 'text', text: 'The menu' },
            { type: 'bookmark' },
            { type: 'setVariable', name: 'count', mode: 'add', value: '1' },
            { type: 'setTag', tag: 'vip' },
            { type: 'dropTag', tag: 'new' },
            { type: 'variableSwitch', variable: 'count', criteria: 'greaterThan', value: '3', then: [{ type: 'text', text: 'Many' }], else: [{ type: 'stop' }] },
            { type: 'tagSwitch', tag: 'vip', present: false, then: [{ type: 'forget' }] },
            {
              type: 'input',
              question: 'Your code?',
              expect: { regex: '^[0-9]{4}$' },
              variable: 'code',
              maxWrongAnswers: 2,
              wrongAnswerTexts: ['Four digits please', 'Try again'],
              onSuccess: [{ type: 'privacy', flag: 'analytics', enabled: true }],
              onGiveUp: [{ type: 'operator', mode: 'request' }],
            },
            {
              type: 'callApi',
              method: 'POST',
              url: 'https://api.example.org/orders',
              headers: { 'X-Key': 'abc', Accept: 'application/json' },
              body: '{"code":1}',
              timeoutMs: 5000,
              variable: 'status',
              onError: [{ type: 'shareUrl', mode: 'view', hours: 2 }],
            },
            {
              type: 'ai',
              mode: 'classify',
              instructions: 'Sort the request',
              labels: ['billing', 'sales'],
              variable: 'topic',
              temperature: 0.5,
              onError: [{ type: 'knowledge', question: 'What is it?', cite: false, maxPassages: 3, onNoAnswer: [{ type: 'text', text: 'No idea' }] }],
            },
            { type: 'agent', instructions: 'Help with orders', maxSteps: 3, onError: [{ type: 'text', text: 'Sorry' }] },
          ],
        },
      ],
    },
  ],
});

function typesIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const x of value) typesIn(x, into);
  else if (value && typeof value === 'object') {
    const type = (value as { type?: unknown }).type;
    if (typeof type === 'string') into.add(type);
    for (const v of Object.values(value)) typesIn(v, into);
  }
  return into;
}

for (const kind of pageDatabases()) {
  describe(`the designer's forms make every action type (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, botFile([{ name: 'Start', actions: [text('Hi')] }], { name: 'Every type' }), [['dee@example.org', 'Dee Designer', 'designer']]);

    test('a bot using every type of the registry, built in the forms, is saved as the expected file', async () => {
      const schema = (await world.server.client.get('/schema/bot.json')).body;
      const registry: string[] = schema.$defs.action.properties.type.enum;
      assert.deepEqual([...typesIn(expected().behaviours)].sort(), [...registry].sort(), 'the expected file uses every type');

      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      const f = formOf(page);
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
      await page.locator('.outline .pick').first().waitFor();

      // A second step, renamed Menu, so that goTo targets can name it.
      await page.getByRole('button', { name: 'Add interaction to Main' }).click();
      await page.locator('#interaction-name').fill('Menu');
      await page.getByRole('button', { name: 'Rename', exact: true }).click();
      await page.locator('#inspector-title', { hasText: 'Menu' }).waitFor();
      await f.fill(`${MENU}[0].text`, 'The menu');
      await f.add(MENU, 'bookmark');
      await f.add(MENU, 'setVariable');
      await f.fill(`${MENU}[2].name`, 'count');
      await f.choose(`${MENU}[2].mode`, 'add');
      await f.fill(`${MENU}[2].value`, '1');
      await f.add(MENU, 'setTag');
      await f.fill(`${MENU}[3].tag`, 'vip');
      await f.add(MENU, 'dropTag');
      await f.fill(`${MENU}[4].tag`, 'new');
      await f.add(MENU, 'variableSwitch');
      await f.fill(`${MENU}[5].variable`, 'count');
      await f.choose(`${MENU}[5].criteria`, 'greaterThan');
      await f.fill(`${MENU}[5].value`, '3');
      await f.add(`${MENU}[5].then`, 'text');
      await f.fill(`${MENU}[5].then[0].text`, 'Many');
      await f.add(`${MENU}[5].else`, 'stop');
      await f.add(MENU, 'tagSwitch');
      await f.fill(`${MENU}[6].tag`, 'vip');
      await page.locator(field(`${MENU}[6].present`)).uncheck(); // ticked: a present tag is the default
      await f.add(`${MENU}[6].then`, 'forget');
      await f.add(MENU, 'input');
      await f.fill(`${MENU}[7].question`, 'Your code?');
      await page.locator(`${field(`${MENU}[7].expect`)}-kind`).selectOption({ label: 'a pattern' });
      await f.fill(`${MENU}[7].expect.regex`, '^[0-9]{4}$');
      await f.fill(`${MENU}[7].variable`, 'code');
      await f.fill(`${MENU}[7].maxWrongAnswers`, '2');
      await f.fill(`${MENU}[7].wrongAnswerTexts`, 'Four digits please\nTry again');
      await f.add(`${MENU}[7].onSuccess`, 'privacy');
      await f.fill(`${MENU}[7].onSuccess[0].flag`, 'analytics');
      await page.locator(field(`${MENU}[7].onSuccess[0].enabled`)).check();
      await f.add(`${MENU}[7].onGiveUp`, 'operator');
      await f.add(MENU, 'callApi');
      await f.fill(`${MENU}[8].method`, 'POST');
      await f.fill(`${MENU}[8].url`, 'https://api.example.org/orders');
      await f.fill(`${MENU}[8].headers`, 'X-Key: abc\nAccept: application/json');
      await f.fill(`${MENU}[8].body`, '{"code":1}');
      await f.fill(`${MENU}[8].timeoutMs`, '5000');
      await f.fill(`${MENU}[8].variable`, 'status');
      await f.add(`${MENU}[8].onError`, 'shareUrl');
      await f.fill(`${MENU}[8].onError[0].hours`, '2');
      await f.add(MENU, 'ai');
      await f.choose(`${MENU}[9].mode`, 'classify');
      await f.fill(`${MENU}[9].instructions`, 'Sort the request');
      await f.fill(`${MENU}[9].labels`, 'billing\nsales');
      await f.fill(`${MENU}[9].variable`, 'topic');
      await f.fill(`${MENU}[9].temperature`, '0.5');
      await f.add(`${MENU}[9].onError`, 'knowledge');
      await f.fill(`${MENU}[9].onError[0].question`, 'What is it?');
      await page.locator(field(`${MENU}[9].onError[0].cite`)).uncheck(); // ticked: citing is the default
      await f.fill(`${MENU}[9].onError[0].maxPassages`, '3');
      await f.add(`${MENU}[9].onError[0].onNoAnswer`, 'text');
      await f.fill(`${MENU}[9].onError[0].onNoAnswer[0].text`, 'No idea');
      await f.add(MENU, 'agent');
      await f.fill(`${MENU}[10].instructions`, 'Help with orders');
      await f.fill(`${MENU}[10].maxSteps`, '3');
      await f.add(`${MENU}[10].onError`, 'text');
      await f.fill(`${MENU}[10].onError[0].text`, 'Sorry');

      // The start step: media, buttons and a link, a carousel, a delay and a goTo.
      await page.locator('.outline .pick', { hasText: 'Start' }).click();
      await f.fill(`${START}[0].text`, 'Hello there');
      await page.getByRole('button', { name: 'Add a variation' }).click();
      await f.fill(`${START}[0].texts[1]`, 'Hi there');
      for (const [n, type, url, caption] of [
        [1, 'image', 'https://example.org/a.png', 'A picture'],
        [2, 'video', 'https://example.org/a.mp4', ''],
        [3, 'audio', 'https://example.org/a.mp3', ''],
        [4, 'file', 'https://example.org/a.pdf', 'The leaflet'],
      ] as const) {
        await f.add(START, type);
        await f.fill(`${START}[${n}].url`, url);
        if (caption) await f.fill(`${START}[${n}].caption`, caption);
      }
      await f.add(START, 'buttons');
      await f.fill(`${START}[5].text`, 'Choose');
      await f.add(`${START}[5].buttons`, 'button');
      await f.fill(`${START}[5].buttons[0].text`, 'Menu');
      await f.add(`${START}[5].buttons[0].onClick`, 'goTo');
      await f.target(`${START}[5].buttons[0].onClick[0]`, 'Main', 'Menu');
      await f.add(`${START}[5].buttons`, 'link');
      await f.fill(`${START}[5].buttons[1].text`, 'Site');
      await f.fill(`${START}[5].buttons[1].url`, 'https://example.org/');
      await f.add(START, 'carousel');
      await page.locator(`${field(`${START}[6].cards`)}-add-item`).click();
      await f.fill(`${START}[6].cards[0].title`, 'Card');
      await f.fill(`${START}[6].cards[0].subtitle`, 'Sub');
      await f.add(`${START}[6].cards[0].buttons`, 'button');
      await f.fill(`${START}[6].cards[0].buttons[0].text`, 'Pick');
      await f.add(`${START}[6].cards[0].buttons[0].onClick`, 'setTag');
      await f.fill(`${START}[6].cards[0].buttons[0].onClick[0].tag`, 'picked');
      await f.fill(`${START}[6].variable`, 'card');
      await f.add(START, 'delay');
      await f.fill(`${START}[7].ms`, '500');
      await f.add(START, 'goTo');
      await f.target(`${START}[8]`, 'Main', 'Menu');
      await page.locator(field(`${START}[8].cancelFurtherExecution`)).check();

      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      const saved = (await world.server.client.get(`/bots/${world.tenant.botKey}`, { token: world.tenant.accountToken })).body;
      assert.deepEqual(withoutServerFields(saved), expected());

      // Opened again, the forms show what was saved (edited, not only created).
      await page.reload();
      await page.locator('.outline .pick', { hasText: 'Menu' }).click();
      assert.equal(await page.locator(field(`${MENU}[7].expect.regex`)).inputValue(), '^[0-9]{4}$');
      assert.equal(await page.locator(field(`${MENU}[8].headers`)).inputValue(), 'X-Key: abc\nAccept: application/json');
      assert.equal(await page.locator(field(`${MENU}[9].onError[0].cite`)).isChecked(), false);
      await f.fill(`${MENU}[8].headers`, 'X-Key: xyz');
      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      const again = (await world.server.client.get(`/bots/${world.tenant.botKey}`, { token: world.tenant.accountToken })).body;
      assert.deepEqual(again.behaviours[0].interactions[1].actions[8].headers, { 'X-Key': 'xyz' });
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    for (const viewport of [DESKTOP, PHONE]) {
      test(`the forms say the schema in plain words (${viewport.width}px)`, async () => {
        const email = `plain-${viewport.width}@example.org`;
        const { botId } = await anotherBot(world, plainBot(), email);
        const { page, errors } = await pageAs(world.browser, world.server, email, viewport);
        await page.goto(`${world.server.url}/console/designer?bot=${botId}`);
        const ACTIONS = '$.behaviours[0].interactions[0].actions';
        await page.locator(field(`${ACTIONS}[0].texts[0]`)).waitFor();

        // A text and its variation are one field; adding and removing variations moves between text and texts.
        assert.deepEqual(await page.locator('.card-action').first().locator('.texts label').allTextContents(), ['Text', 'Variation 2']);
        assert.equal(await page.locator(field(`${ACTIONS}[0].texts`)).count(), 0, 'no second "texts" field');
        // Choices say what they mean: the condition, the kind of expected answer.
        const criteria = page.locator(field(`${ACTIONS}[1].criteria`));
        assert.equal(await criteria.locator('option:checked').textContent(), 'ends with');
        assert.equal(await page.locator(`label[for="${field(`${ACTIONS}[1].criteria`).slice(1)}"]`).textContent(), 'Condition');
        assert.deepEqual(await page.locator(`${field(`${ACTIONS}[3].expect`)}-kind option`).allTextContents(), ['a kind of answer', 'one of these words', 'a pattern', 'an entity']);
        // Yes/no fields are boxes, showing the default when left out.
        assert.equal(await page.locator(field(`${ACTIONS}[2].present`)).getAttribute('type'), 'checkbox');
        assert.equal(await page.locator(field(`${ACTIONS}[2].present`)).isChecked(), true);
        assert.equal(await page.locator(field(`${ACTIONS}[4].cite`)).isChecked(), true);
        assert.equal(await page.locator(field(`${ACTIONS}[4].say`)).isChecked(), true);
        const side = page.locator('#side-panel');
        for (const raw of ['one of a list', 'endsWith', 'texts']) assert.equal((await side.innerText()).includes(raw), false, `"${raw}" is not shown`);
        assert.equal(await side.locator('option', { hasText: /^default$/ }).count(), 0, 'no default/yes/no choices');
        await page.screenshot({ path: shot(kind, `plain-words-${viewport.width}`), fullPage: viewport === PHONE });
        assert.deepEqual(await seriousViolations(page), []);

        await page.getByRole('tab', { name: 'Bot' }).click();
        const auth = page.locator(field('$.settings.simplifiedAuth'));
        assert.equal(await auth.getAttribute('type'), 'checkbox');
        assert.equal(await page.locator(`label[for="${field('$.settings.simplifiedAuth').slice(1)}"]`).textContent(), 'Let channels sign in with the bot key alone');
        assert.equal((await side.innerText()).toLowerCase().includes('simplified auth'), false);
        assert.deepEqual(await seriousViolations(page), []);
        assert.deepEqual(errors, []);
        await page.context().close();
      });
    }
  });
}

/** One interaction with a text and its variation, a condition, a tag check, a question and a knowledge step. */
function plainBot() {
  return botFile(
    [
      {
        name: 'Ask',
        actions: [
          { type: 'text', texts: ['Hi!', 'Hello!'] },
          { type: 'variableSwitch', variable: 'email', criteria: 'endsWith', value: '@example.com', then: [{ type: 'text', text: 'Staff' }] },
          { type: 'tagSwitch', tag: 'vip', then: [{ type: 'text', text: 'Welcome back' }] },
          { type: 'input', question: 'Your e-mail?', expect: 'email', variable: 'email', onSuccess: [{ type: 'text', text: 'Thanks' }] },
          { type: 'knowledge' },
        ],
      },
    ],
    { name: 'Plain words' },
  );
}
