import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../bot-file.js';
import { botWith, Conversation, interaction, say, texts } from '../../test-kit.js';

function run(tags: string[], action: Partial<Action>) {
  const conversation = new Conversation(botWith([{ type: 'tagSwitch', tag: 'vip', then: [say('then')], else: [say('else')], ...action }, say('after')], [interaction('Target', [say('target')])]));
  conversation.state.tags = tags;
  return texts(conversation.start());
}

test('present (default true): then when the tag is set, else otherwise', () => {
  assert.deepEqual(run(['vip'], {}), ['then', 'after']);
  assert.deepEqual(run([], {}), ['else', 'after']);
});

test('present: false inverts the condition', () => {
  assert.deepEqual(run(['vip'], { present: false }), ['else', 'after']);
  assert.deepEqual(run([], { present: false }), ['then', 'after']);
});

test('without else nothing runs when the condition fails', () => {
  assert.deepEqual(run([], { else: undefined }), ['after']);
});

test('a goTo inside then moves the conversation and skips the rest', () => {
  assert.deepEqual(run(['vip'], { then: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Target' }, say('skipped')] }), ['target']);
});
