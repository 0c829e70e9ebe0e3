import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, drive, makeBot, behaviour, interaction, started, summary } from '../../test-kit.js';
import { newConversationState } from '../../state.js';

test('text says a Type 0 part with the full reply part shape', () => {
  const [, outcome] = started(botWith([{ type: 'text', text: 'Hello there, {{name|friend}}!' }]));
  assert.deepEqual(outcome.parts, [{ Type: 0, Text: 'Hello there, friend!', Command: null, TypeDelay: 300, BehaviourName: 'Main', InteractionName: 'Start', Parts: [] }]);
  assert.deepEqual(Object.keys(outcome.parts[0]), ['Type', 'Text', 'Command', 'TypeDelay', 'BehaviourName', 'InteractionName', 'Parts']);
});

test('text renders variables', () => {
  const [, outcome] = started(botWith([{ type: 'text', text: 'Hi {{name}}' }]), { name: 'Ann' });
  assert.deepEqual(summary(outcome), [[0, 'Hi Ann', null, 200]]);
});

test('texts picks one at random with ctx.random', () => {
  const bot = botWith([{ type: 'text', texts: ['one', 'two words', 'three more words'] }]);
  const pick = (random: number) => summary(drive(bot, newConversationState(bot), { kind: 'start' }, { random: () => random }));
  assert.deepEqual(pick(0), [[0, 'one', null, 100]]);
  assert.deepEqual(pick(0.5), [[0, 'two words', null, 200]]);
  assert.deepEqual(pick(0.9999), [[0, 'three more words', null, 300]]);
});

test('TypeDelay is 0 when enableTypeSpeed is off, and uses 200 words a minute by default', () => {
  const off = botWith([{ type: 'text', text: 'a b c' }], [], { settings: { enableTypeSpeed: false, wordsPerMinute: 600 } });
  assert.deepEqual(summary(started(off)[1]), [[0, 'a b c', null, 0]]);
  const defaultSpeed = botWith([{ type: 'text', text: 'a b c' }], [], { settings: { enableTypeSpeed: true } });
  assert.deepEqual(summary(started(defaultSpeed)[1]), [[0, 'a b c', null, 900]]);
  const rounded = botWith([{ type: 'text', text: 'a b' }], [], { settings: { enableTypeSpeed: true, wordsPerMinute: 7 } });
  assert.deepEqual(summary(started(rounded)[1]), [[0, 'a b', null, 17143]]);
});

test('a text action without text or texts is skipped; the next action still runs', () => {
  const [, outcome] = started(botWith([{ type: 'text' }, { type: 'text', texts: [] }, { type: 'text', text: 'ok' }]));
  assert.deepEqual(summary(outcome), [[0, 'ok', null, 100]]);
});

test('parts carry the names of the interaction that produced them', () => {
  const bot = makeBot([
    behaviour('Main', [
      interaction('First', [
        { type: 'text', text: 'one' },
        { type: 'goTo', mode: 'absolute', behaviour: 'other', interaction: 'SECOND' },
      ]),
    ]),
    behaviour('Other', [interaction('Second', [{ type: 'text', text: 'two' }])]),
  ]);
  const [, outcome] = started(bot);
  assert.deepEqual(
    outcome.parts.map((p) => [p.Text, p.BehaviourName, p.InteractionName]),
    [
      ['one', 'Main', 'First'],
      ['two', 'Other', 'Second'],
    ],
  );
});
