// The Typebot converter per construct (importers.md "Typebot"), on a small export written for it
// (test/fixtures/imports/typebot-constructs.json): no server, the bot file and report compared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixtureText } from '../../../test/support/import-kit.js';
import { validateBotFile } from '../../bots/validate.js';
import { ImportRefusal } from '../refusal.js';
import { convertTypebot } from './convert.js';

const source = () => JSON.parse(fixtureText('typebot-constructs.json'));
const converted = () => convertTypebot(source(), 'constructs.json');
const interaction = (name: string) => converted().bot.behaviours[0]!.interactions.find((i) => i.name === name)!;
const goTo = (interaction: string) => ({ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction });

describe('convertTypebot', () => {
  it('makes a valid bot: one interaction per group, and one for what follows an input mid-group', () => {
    const { bot } = converted();
    assert.deepEqual(validateBotFile(bot).ok, true, JSON.stringify(validateBotFile(bot)));
    assert.deepEqual(
      bot.behaviours[0]!.interactions.map((i) => [i.name, i.start === true]),
      [
        ['Start', true],
        ['Check', false],
        ['Big order', false],
        ['Choose', false],
        ['Small order', false],
        ['Start (after block 3)', false],
        ['Choose (after block 2)', false],
      ],
    );
    assert.deepEqual(bot.variables, { Crust: 'Thin' });
  });

  it('set variable, rich text as Markdown, an e-mail input with its retry text', () => {
    assert.deepEqual(interaction('Start').actions, [
      { type: 'setVariable', name: 'Count', mode: 'overwrite', value: '3' },
      { type: 'text', text: 'Your _e-mail_, [please](https://example.org)' },
      { type: 'input', expect: 'email', variable: 'Email', onSuccess: [goTo('Start (after block 3)')], wrongAnswerTexts: ['That is no e-mail address.'] },
    ]);
    assert.deepEqual(interaction('Start (after block 3)').actions, [
      { type: 'text', text: 'Thanks {{Email}}. How many?' },
      { type: 'input', expect: 'number', variable: 'Count', onSuccess: [goTo('Check')] },
    ]);
  });

  it('a condition with AND becomes nested variableSwitch steps, its else the block edge', () => {
    assert.deepEqual(interaction('Check').actions, [
      {
        type: 'variableSwitch',
        variable: 'Count',
        criteria: 'greaterThan',
        value: '5',
        then: [{ type: 'variableSwitch', variable: 'Email', criteria: 'endsWith', value: '.org', then: [goTo('Big order')], else: [goTo('Small order')] }],
        else: [goTo('Small order')],
      },
    ]);
  });

  it('HTTP request → callApi, OpenAI → ai, wait → delay, jump → goTo; what does not fit is reported', () => {
    const { report } = converted();
    assert.deepEqual(interaction('Big order').actions, [
      { type: 'callApi', method: 'POST', url: 'https://api.example.org/orders?q={{Count}}', headers: { 'X-Shop': '1' }, body: '{"email": "{{Email}}"}', variable: 'Order', responsePath: 'id' },
      { type: 'ai', mode: 'reply', instructions: 'You are a pizza bot.', input: 'Say thanks for order {{Order}}', variable: 'Answer' },
      { type: 'delay', ms: 2000 },
      goTo('Choose'),
    ]);
    assert.deepEqual(
      report.Skipped.map((s) => [s.Path, s.What, s.Interaction]),
      [
        ['constructs.json: $.groups[2].blocks[0].options.responseVariableMapping[1]', 'a second response mapping', 'Big order'],
        ['constructs.json: $.groups[4].blocks[0]', 'a "Script" block', 'Small order'],
      ],
    );
    // each names the interaction it left a gap in, for the designer to link
    assert.deepEqual(
      report.Changed.map((c) => [c.Path, c.Interaction]),
      [['constructs.json: $.groups[2].blocks[1].options', 'Big order']],
    );
  });

  it('a choice: its text merged above the buttons, each storing the choice and following its edge or the group', () => {
    assert.deepEqual(interaction('Choose').actions, [
      {
        type: 'buttons',
        text: 'Pick a crust',
        buttons: [
          { type: 'button', text: 'Thin', onClick: [{ type: 'setVariable', name: 'Crust', value: 'Thin' }, goTo('Small order')] },
          { type: 'button', text: 'Thick', onClick: [{ type: 'setVariable', name: 'Crust', value: 'Thick' }, goTo('Choose (after block 2)')] },
        ],
      },
    ]);
    assert.deepEqual(interaction('Small order').actions, [{ type: 'link', text: 'https://example.org/menu', url: 'https://example.org/menu' }]);
  });

  it('counts what it carried over', () => {
    assert.deepEqual(converted().report.Converted, { Behaviours: 1, Interactions: 7, Intents: 0, Entities: 0, Variables: 5, Actions: 25 });
  });

  it('refuses a schema version newer than 6.1 or older than 5, naming it', () => {
    for (const version of ['6.2', '7', '4.9', 'abc']) {
      assert.throws(
        () => convertTypebot({ ...source(), version }, 'x.json'),
        (err: unknown) => err instanceof ImportRefusal && err.code === 'IMPORT_UNSUPPORTED' && err.detail.extra.Version === version,
      );
    }
    assert.doesNotThrow(() => convertTypebot({ ...source(), version: '5' }, 'x.json'));
  });
});
