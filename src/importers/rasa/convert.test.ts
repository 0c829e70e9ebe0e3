// The Rasa converter per construct (importers.md "Rasa"), on a small project written for it
// (test/fixtures/imports/rasa-constructs/): no server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportFilesOf } from '../../../test/support/import-kit.js';
import { validateBotFile } from '../../bots/validate.js';
import { ImportRefusal } from '../refusal.js';
import { convertRasa, STORY_STEP } from './convert.js';

const converted = () => convertRasa(exportFilesOf('rasa-constructs'));
const interaction = (name: string) => converted().bot.behaviours[0]!.interactions.find((i) => i.name === name)!;
const goTo = (interaction: string) => ({ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction });
const step = (name: string) => ({ type: 'setVariable', name: STORY_STEP, value: name });

describe('convertRasa', () => {
  it('makes a valid bot: a start, the nlu_fallback rule as fallback, one interaction per turn of the stories', () => {
    const { bot } = converted();
    assert.equal(validateBotFile(bot).ok, true, JSON.stringify(validateBotFile(bot)));
    assert.deepEqual(
      bot.behaviours[0]!.interactions.map((i) => [i.name, i.start === true, i.fallback === true]),
      [
        ['Start', true, false],
        ['Fallback', false, true],
        ['greet', false, false],
        ['greet > order_pizza', false, false],
        ['greet > deny', false, false],
        ['greet > order_pizza > choose_size', false, false],
      ],
    );
  });

  it('intents with examples (annotations read out), synonyms and lookup tables as entity values, a regex entity', () => {
    const { bot } = converted();
    assert.deepEqual(bot.nlp!.intents!.find((i) => i.name === 'choose_size')!.examples, ['small', 'a large one please', 'make it big']);
    assert.deepEqual(bot.nlp!.entities, [
      { name: 'topping', values: { margherita: ['margherita'], salami: ['salami'] } },
      { name: 'size', values: { small: ['small'], large: ['large', 'big', 'huge', 'family size'] } },
      { name: 'zipcode', regex: '(?:\\d{5})' },
    ]);
  });

  it('variations become texts; a story step after another is reached only from it', () => {
    assert.deepEqual(interaction('greet').actions, [step('greet'), { type: 'text', texts: ['Hello! Pizza time?', 'Hi there! Hungry?'] }]);
    assert.deepEqual(converted().bot.triggers!.find((t) => 'intent' in t && t.intent === 'deny')!.actions, [goTo('greet > deny')]);
  });

  it('buttons run their payload intent (entities set first); slots become templates; a form becomes inputs', () => {
    const [, buttons] = interaction('greet > order_pizza').actions;
    assert.deepEqual(buttons, {
      type: 'buttons',
      text: 'Which size?',
      buttons: [
        { type: 'button', text: 'Small', onClick: [{ type: 'setVariable', name: 'entity_size', value: 'small' }, goTo('greet > order_pizza > choose_size')] },
        { type: 'button', text: 'Large', onClick: [{ type: 'setVariable', name: 'entity_size', value: 'large' }, goTo('greet > order_pizza > choose_size')] },
      ],
    });
    assert.deepEqual(interaction('greet > order_pizza > choose_size').actions, [
      step('greet > order_pizza > choose_size'),
      { type: 'text', text: 'A {{entity_size}} pizza, good choice.' },
      { type: 'image', url: 'https://example.org/pizza.png' },
      { type: 'input', question: 'Where should we deliver it?', expect: 'any', variable: 'address', onSuccess: [{ type: 'text', text: 'On its way to {{address}}!' }] },
    ]);
    assert.deepEqual(converted().bot.variables, { story_step: '', size: '', address: '', imported_channel: 'web' });
  });

  it('custom actions, checkpoints, one-example intents, unused and channel responses are in Skipped', () => {
    const { report } = converted();
    assert.deepEqual(
      report.Skipped.map((s) => [s.Path, s.What]),
      [
        ['config.yml: $', 'config.yml'],
        ['data/nlu.yml: $.nlu[5]', 'the intent "lonely"'],
        ['data/stories.yml: $.stories[1].steps[4]', 'the checkpoint "after_bye"'],
        ['data/stories.yml: $.stories[0].steps[3]', 'the custom action action_check_stock'],
        ['domain.yml: $.responses.utter_whatsapp_only', 'the response utter_whatsapp_only'],
      ],
    );
    assert.deepEqual(
      report.Changed.map((c) => c.Path),
      ['domain.yml: $.slots.channel'],
    );
  });

  it('a form whose slot is not filled from text is skipped, not half made', () => {
    const files = exportFilesOf('rasa-constructs');
    const domain = files.get('domain.yml') as any;
    domain.slots.address.mappings = [{ type: 'from_intent', intent: 'affirm', value: true }];
    const { bot, report } = convertRasa(files);
    const turn = bot.behaviours[0]!.interactions.find((i) => i.name === 'greet > order_pizza > choose_size')!;
    // what follows the form in the story is still said
    assert.deepEqual(
      turn.actions.map((a) => a.type),
      ['setVariable', 'text', 'image', 'text'],
    );
    assert.ok(
      report.Skipped.some((s) => s.Path === 'data/stories.yml: $.stories[0].steps[7]' && s.What === 'the form delivery_form'),
      JSON.stringify(report.Skipped),
    );
  });

  it('refuses format versions other than 2.x and 3.x, and Rasa 1.x Markdown', () => {
    const files = exportFilesOf('rasa-constructs');
    (files.get('data/nlu.yml') as any).version = '4.0';
    assert.throws(
      () => convertRasa(files),
      (e: unknown) => e instanceof ImportRefusal && e.code === 'IMPORT_UNSUPPORTED' && e.detail.extra.File === 'data/nlu.yml',
    );
    assert.throws(
      () => convertRasa(new Map([['data/nlu.md', null]])),
      (e: unknown) => e instanceof ImportRefusal && e.code === 'IMPORT_UNSUPPORTED',
    );
  });
});
