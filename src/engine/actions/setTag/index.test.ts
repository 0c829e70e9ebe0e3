import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started } from '../../test-kit.js';

test('setTag adds a tag once, rendered as a template', () => {
  const [conversation] = started(
    botWith([
      { type: 'setTag', tag: 'vip' },
      { type: 'setTag', tag: 'vip' },
      { type: 'setTag', tag: 'lang-{{lang}}' },
    ]),
    { lang: 'en' },
  );
  assert.deepEqual(conversation.state.tags, ['vip', 'lang-en']);
});

test('setTag without a tag is skipped', () => {
  const [conversation] = started(botWith([{ type: 'setTag' }, { type: 'setTag', tag: '' }]));
  assert.deepEqual(conversation.state.tags, []);
});
