// The Dialogflow ES converter per construct (importers.md "Dialogflow ES"), on a small agent
// written for it (test/fixtures/imports/dialogflow-constructs/): no server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportFilesOf } from '../../../test/support/import-kit.js';
import { validateBotFile } from '../../bots/validate.js';
import { convertDialogflow } from './convert.js';

const converted = () => convertDialogflow(exportFilesOf('dialogflow-constructs'));
const interaction = (name: string) => converted().bot.behaviours[0]!.interactions.find((i) => i.name === name)!;
const goTo = (interaction: string) => ({ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction });

describe('convertDialogflow', () => {
  it('makes a valid bot: the welcome intent starts it, the fallback intent is its fallback', () => {
    const { bot } = converted();
    assert.equal(validateBotFile(bot).ok, true, JSON.stringify(validateBotFile(bot)));
    assert.equal(bot.name, 'Pizza shop');
    assert.deepEqual(
      bot.behaviours[0]!.interactions.map((i) => [i.name, i.start === true, i.fallback === true]),
      [
        ['Default Fallback Intent', false, true],
        ['Default Welcome Intent', true, false],
        ['hours', false, false],
        ['order', false, false],
        ['size', false, false],
      ],
    );
  });

  it('training phrases become examples; annotated parts join their entity; @sys.number becomes a regex entity', () => {
    const { bot } = converted();
    assert.deepEqual(bot.nlp!.intents!.find((i) => i.name === 'order')!.examples, ['Order a pizza', 'I want a salami pizza', 'can I get a cheese pizza', 'order 2 pizzas']);
    assert.deepEqual(bot.nlp!.entities, [
      { name: 'topping', values: { salami: ['salami', 'pepperoni'], margherita: ['margherita', 'plain'], cheese: ['cheese'] } },
      { name: 'number', regex: '-?\\d+(?:[.,]\\d+)?' },
    ]);
    assert.equal(bot.nlp!.language, 'en');
  });

  it('output contexts set tags, input contexts require them; $parameters become entity variables', () => {
    assert.deepEqual(interaction('order').actions, [
      { type: 'setTag', tag: 'ordering' },
      { type: 'text', texts: ['One {{entity_topping}} pizza coming up. Which size?', 'A {{entity_topping}} pizza! Which size?'] },
      { type: 'image', url: 'https://example.org/pizza.png' },
    ]);
    assert.deepEqual(interaction('size').actions, [
      { type: 'dropTag', tag: 'ordering' },
      { type: 'text', text: 'Great, it is in the oven.' },
    ]);
    assert.deepEqual(converted().bot.triggers!.find((t) => 'intent' in t && t.intent === 'size')!.actions, [
      { type: 'tagSwitch', tag: 'ordering', then: [goTo('size')], else: [{ type: 'goTo', mode: 'fallback' }] },
    ]);
  });

  it('quick replies become buttons that do what their text would; one no intent knows is reported', () => {
    const [text, buttons] = interaction('Default Welcome Intent').actions;
    assert.deepEqual(text, { type: 'text', text: 'Welcome to the pizza shop! What would you like?' });
    assert.deepEqual(buttons, {
      type: 'buttons',
      text: 'Pick one',
      buttons: [
        { type: 'button', text: 'Order a pizza', onClick: [goTo('order')] },
        { type: 'button', text: 'Opening hours', onClick: [goTo('hours')] },
        { type: 'button', text: 'Something else', onClick: [] },
      ],
    });
  });

  it('webhooks, cards, other platforms and other languages are in Skipped; lifespans and thresholds in Changed', () => {
    const { report } = converted();
    assert.deepEqual(
      report.Skipped.map((s) => [s.Path, s.Interaction]),
      [
        // the agent's own elements belong to no interaction; an intent's to the one it became
        ['agent.json: $.webhook', undefined],
        ['intents/order_usersays_de.json', undefined],
        ['intents/hours.json: $.webhookUsed', 'hours'],
        ['intents/order.json: $.responses[0].messages[2]', 'order'],
        ['intents/order.json: $.responses[0].messages[3]', 'order'],
      ],
    );
    assert.deepEqual(
      report.Changed.map((c) => c.Path),
      ['agent.json: $.mlMinConfidence', 'intents/order.json: $.responses[0].affectedContexts[0].lifespan', 'intents/Default Welcome Intent.json: $.responses[0].messages[1]'],
    );
    assert.deepEqual(report.Converted, { Behaviours: 1, Interactions: 5, Intents: 4, Entities: 2, Variables: 0, Actions: 19 });
  });
});
