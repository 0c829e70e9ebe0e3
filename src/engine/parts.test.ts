// The part type table must keep the wire numbers of api.md section 3 and bot-format.md "Actions".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PartType } from './parts.js';

test('PartType names the wire numbers of the spec, each number once', () => {
  assert.deepEqual(PartType, {
    Text: 0,
    Button: 1,
    Image: 3,
    Carousel: 5,
    Question: 6,
    Video: 9,
    Audio: 10,
    File: 11,
    Buttons: 13,
    Card: 14,
    Link: 17,
    UserText: 19,
    Delay: 25,
  });
  const numbers = Object.values(PartType);
  assert.equal(new Set(numbers).size, numbers.length);
});
