import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviour, goTo, interaction, makeBot, say, started, texts } from '../../test-kit.js';

test('bookmark remembers the current interaction; a later bookmark replaces it', () => {
  const bot = makeBot([
    behaviour('Main', [interaction('Start', [{ type: 'bookmark' }, goTo('Shop', 'Cart')])]),
    behaviour('Shop', [interaction('Cart', [say('cart'), { type: 'bookmark' }]), interaction('Leave', [{ type: 'goTo', mode: 'bookmark' }])]),
  ]);
  const [conversation, first] = started(bot);
  assert.deepEqual(first.parts.length, 1);
  assert.deepEqual(conversation.state.bookmark, { behaviour: 'Shop', interaction: 'Cart' });
  assert.deepEqual(texts(conversation.goTo('Shop', 'Leave')), ['cart']);
  assert.equal(conversation.where, 'Shop/Cart');
});

test('a RESET forgets the bookmark with the position', () => {
  const bot = makeBot([behaviour('Main', [interaction('Start', [say('hi')]), interaction('Mark', [{ type: 'bookmark' }])])]);
  const [conversation] = started(bot);
  conversation.goTo('Main', 'Mark');
  assert.deepEqual(conversation.state.bookmark, { behaviour: 'Main', interaction: 'Mark' });
  conversation.start();
  assert.equal(conversation.state.bookmark, null);
  assert.equal(conversation.where, 'Main/Start');
});
