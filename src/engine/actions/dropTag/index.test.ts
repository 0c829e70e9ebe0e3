import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, Conversation } from '../../test-kit.js';

test('dropTag removes a tag and leaves the others', () => {
  const conversation = new Conversation(
    botWith([
      { type: 'dropTag', tag: 'vip' },
      { type: 'dropTag', tag: 'absent' },
    ]),
  );
  conversation.state.tags = ['new', 'vip', 'late'];
  conversation.start();
  assert.deepEqual(conversation.state.tags, ['new', 'late']);
});
