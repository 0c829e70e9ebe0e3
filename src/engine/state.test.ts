// Stored conversation states carry a version and are read through one function (issue 12).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newConversationState, stateFromStored, STATE_VERSION } from './state.js';
import { botWith } from './test-kit.js';

const EMPTY = { v: 1, position: null, previous: null, bookmark: null, variables: {}, tags: [], privacy: {}, waiting: null };

test('new states carry the current version', () => {
  assert.equal(STATE_VERSION, 1);
  assert.equal(newConversationState(botWith([])).v, 1);
});

test('a state stored without a version (the shape before versions) gets the version and its missing defaults', () => {
  const old = {
    position: { behaviour: 'Main', interaction: 'Ask' },
    variables: { name: 'Ana', user_id: 'u1' },
    tags: ['vip'],
    waiting: { actionId: 'a1b2', wrongAnswers: 2 },
  };
  assert.deepEqual(stateFromStored(old), {
    v: 1,
    position: { behaviour: 'Main', interaction: 'Ask' },
    previous: null,
    bookmark: null,
    variables: { name: 'Ana', user_id: 'u1' },
    tags: ['vip'],
    privacy: {},
    waiting: { actionId: 'a1b2', wrongAnswers: 2 },
  });
});

test('a complete current state reads back unchanged', () => {
  const current = {
    v: 1,
    position: { behaviour: 'B', interaction: 'I' },
    previous: { behaviour: 'B', interaction: 'Start' },
    bookmark: { behaviour: 'B', interaction: 'Mark' },
    variables: { a: '1' },
    tags: ['t'],
    privacy: { personal_data_processing: true },
    waiting: null,
  };
  assert.deepEqual(stateFromStored(structuredClone(current)), current);
});

test('values of the wrong type are dropped, not trusted; junk gives an empty state', () => {
  assert.deepEqual(
    stateFromStored({
      position: { behaviour: 'B' },
      previous: 'B/I',
      bookmark: [],
      variables: { ok: 'yes', n: 3, o: {} },
      tags: ['t', 4, null],
      privacy: { p: true, q: 'yes' },
      waiting: { actionId: 7 },
    }),
    { ...EMPTY, variables: { ok: 'yes' }, tags: ['t'], privacy: { p: true } },
  );
  for (const junk of [null, undefined, 'text', 42, [], [1]]) assert.deepEqual(stateFromStored(junk), EMPTY);
  assert.deepEqual(stateFromStored({ waiting: { actionId: 'x', wrongAnswers: 'many' } }).waiting, { actionId: 'x', wrongAnswers: 0 });
});
