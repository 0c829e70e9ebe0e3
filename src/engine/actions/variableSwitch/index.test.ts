import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started, texts } from '../../test-kit.js';

/** Does `x` (undefined = unset) meet the criterion? Runs a real variableSwitch. */
function holds(x: string | undefined, criteria: string, value?: string, value2?: string): boolean {
  const bot = botWith([{ type: 'variableSwitch', variable: 'x', criteria, value, value2, then: [{ type: 'text', text: 'then' }], else: [{ type: 'text', text: 'else' }] }]);
  const [, outcome] = started(bot, x === undefined ? {} : { x });
  const said = texts(outcome);
  assert.equal(said.length, 1);
  return said[0] === 'then';
}

test('equals: case-insensitive, alternatives a|b, ;-joined pieces', () => {
  assert.equal(holds('Yes', 'equals', 'yes'), true);
  assert.equal(holds('yes', 'equals', 'no'), false);
  assert.equal(holds('maybe', 'equals', 'yes|Maybe|no'), true);
  assert.equal(holds('red;Blue', 'equals', 'blue'), true);
  assert.equal(holds('red;blue', 'equals', 'red;blue'), true);
  assert.equal(holds(undefined, 'equals', ''), true);
  assert.equal(holds(undefined, 'equals', 'x'), false);
});

test('notEquals: the negation of equals', () => {
  assert.equal(holds('Yes', 'notEquals', 'yes'), false);
  assert.equal(holds('yes', 'notEquals', 'no|maybe'), true);
  assert.equal(holds('yes', 'notEquals', 'no|YES'), false);
  assert.equal(holds('red;blue', 'notEquals', 'blue'), false);
});

test('contains, startsWith, endsWith: case-insensitive, any ;-piece', () => {
  assert.equal(holds('Hello World', 'contains', 'o w'), true);
  assert.equal(holds('Hello', 'contains', 'x'), false);
  assert.equal(holds('Hello', 'startsWith', 'HE'), true);
  assert.equal(holds('Hello', 'startsWith', 'lo'), false);
  assert.equal(holds('Hello', 'endsWith', 'LO'), true);
  assert.equal(holds('Hello', 'endsWith', 'he'), false);
  assert.equal(holds('apple;Banana', 'startsWith', 'ban'), true);
  assert.equal(holds('apple;banana', 'endsWith', 'PLE'), true);
});

test('matches: case-insensitive regex search; an invalid regex never matches', () => {
  assert.equal(holds('Order 123456', 'matches', '\\d{6}'), true);
  assert.equal(holds('ann@EXAMPLE.org', 'matches', '^[a-z]+@example\\.org$'), true);
  assert.equal(holds('abc', 'matches', '^\\d+$'), false);
  assert.equal(holds('abc', 'matches', '('), false);
  assert.equal(holds('x;42', 'matches', '^\\d+$'), true);
});

test('empty and notEmpty', () => {
  assert.equal(holds(undefined, 'empty'), true);
  assert.equal(holds('', 'empty'), true);
  assert.equal(holds('  ', 'empty'), true);
  assert.equal(holds('a', 'empty'), false);
  assert.equal(holds('a', 'notEmpty'), true);
  assert.equal(holds(undefined, 'notEmpty'), false);
});

test('greaterThan and lessThan compare numbers; unparsable reads as 0', () => {
  assert.equal(holds('10', 'greaterThan', '9'), true); // numerically, not as text
  assert.equal(holds('3', 'greaterThan', '3'), false);
  assert.equal(holds('2.5', 'lessThan', '10'), true);
  assert.equal(holds('abc', 'lessThan', '1'), true);
  assert.equal(holds('abc', 'greaterThan', '-1'), true);
  assert.equal(holds(undefined, 'lessThan', 'x'), false);
});

test('between is inclusive at both ends', () => {
  assert.equal(holds('5', 'between', '1', '10'), true);
  assert.equal(holds('1', 'between', '1', '10'), true);
  assert.equal(holds('10', 'between', '1', '10'), true);
  assert.equal(holds('10.5', 'between', '1', '10'), false);
  assert.equal(holds('0', 'between', '1', '10'), false);
  assert.equal(holds('junk', 'between', '0', '0'), true);
});

test('value and value2 are templates', () => {
  const bot = botWith([{ type: 'variableSwitch', variable: 'x', criteria: 'between', value: '{{low}}', value2: '{{high}}', then: [{ type: 'text', text: 'in' }] }]);
  assert.deepEqual(texts(started(bot, { x: '5', low: '4', high: '6' })[1]), ['in']);
});

test('an unknown criterion is skipped (neither branch runs)', () => {
  const bot = botWith([
    { type: 'variableSwitch', variable: 'x', criteria: 'resembles', value: 'a', then: [{ type: 'text', text: 'then' }], else: [{ type: 'text', text: 'else' }] },
    { type: 'text', text: 'after' },
  ]);
  assert.deepEqual(texts(started(bot, { x: 'a' })[1]), ['after']);
});
