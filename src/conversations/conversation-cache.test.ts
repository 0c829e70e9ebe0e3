// The node's copies of conversations: bounded, never a conversation being forgotten, and a
// conversation found stale kept out until its back-off ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationCache } from './conversation-cache.js';
import type { ConversationRecord } from './model.js';

const record = (userId: string, over: Partial<ConversationRecord> = {}): ConversationRecord => ({
  id: 1,
  botId: 'b',
  userId,
  channel: 'custom',
  state: { v: 1, position: null, previous: null, bookmark: null, variables: {}, tags: [], privacy: {}, waiting: null },
  controlState: 0,
  operator: null,
  banExpiration: null,
  banMessage: null,
  forgetting: false,
  revision: 3,
  controlChangedAt: 0,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

test('keeps the most recently used conversations up to its capacity', () => {
  const cache = new ConversationCache(() => 0, 2);
  cache.remember('a', record('a'));
  cache.remember('b', record('b'));
  assert.equal(cache.get('a')?.userId, 'a'); // not a use: only remember() refreshes
  cache.remember('a', record('a', { revision: 4 }));
  cache.remember('c', record('c'));
  assert.equal(cache.get('b'), undefined, 'the least recently remembered went');
  assert.equal(cache.get('a')?.revision, 4);
  assert.equal(cache.size, 2);
});

test('a conversation being forgotten is not kept, and replaces an older copy', () => {
  const cache = new ConversationCache(() => 0);
  cache.remember('a', record('a'));
  cache.remember('a', record('a', { forgetting: true }));
  assert.equal(cache.get('a'), undefined);
});

test('a stale copy keeps its conversation out for five minutes; a plain drop does not', () => {
  let now = 1_000;
  const cache = new ConversationCache(() => now);
  cache.remember('a', record('a'));
  cache.drop('a');
  cache.remember('a', record('a'));
  assert.equal(cache.get('a')?.userId, 'a');
  cache.drop('a', true);
  cache.remember('a', record('a'));
  assert.equal(cache.get('a'), undefined);
  now += 5 * 60_000 - 1;
  cache.remember('a', record('a'));
  assert.equal(cache.get('a'), undefined);
  now += 1;
  cache.remember('a', record('a'));
  assert.equal(cache.get('a')?.userId, 'a');
});
