import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newConversationState } from '../../state.js';
import { runTurn } from '../../run-turn.js';
import { botWith, drive, say, texts } from '../../test-kit.js';

test('shareUrl yields a shareUrl request and stores the answer in conversation_share_url', () => {
  const bot = botWith([{ type: 'shareUrl', mode: 'takeover', hours: 24 }, say('Link: {{conversation_share_url}}')]);
  const gen = runTurn(bot, newConversationState(bot), { kind: 'start' }, { now: () => 0, random: () => 0 });
  assert.deepEqual(gen.next().value, { kind: 'shareUrl', mode: 'takeover', hours: 24 });
  const last = gen.next('https://chat.example.org/share/abc');
  assert.equal(last.done, true);
  if (!last.done) return;
  assert.equal(last.value.state.variables.conversation_share_url, 'https://chat.example.org/share/abc');
  assert.deepEqual(texts(last.value), ['Link: https://chat.example.org/share/abc']);
});

test('an invalid mode or hours is skipped without a request', () => {
  const bot = botWith([{ type: 'shareUrl', mode: 'edit', hours: 1 }, { type: 'shareUrl', mode: 'view', hours: 0 }, say('on')]);
  const outcome = drive(bot, newConversationState(bot), { kind: 'start' });
  assert.deepEqual(outcome.requests, []);
  assert.deepEqual(texts(outcome), ['on']);
});
