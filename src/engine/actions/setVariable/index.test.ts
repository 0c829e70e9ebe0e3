import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../bot-file.js';
import { botWith, started } from '../../test-kit.js';

/** Runs one setVariable on `x` (starting at `initial`, undefined = unset) and returns x afterwards. */
function after(initial: string | undefined, action: Partial<Action>): string | undefined {
  const variables: Record<string, string> = initial === undefined ? {} : { x: initial };
  const [conversation] = started(botWith([{ type: 'setVariable', name: 'x', ...action }]), { ...variables, other: 'O' });
  return conversation.variables.x;
}

test('overwrite is the default mode and renders templates', () => {
  assert.equal(after('old', { value: 'new {{other}}' }), 'new O');
  assert.equal(after('old', { mode: 'overwrite', value: 'v' }), 'v');
  assert.equal(after(undefined, { mode: 'overwrite' }), '');
});

test('append concatenates strings', () => {
  assert.equal(after('ab', { mode: 'append', value: 'cd' }), 'abcd');
  assert.equal(after(undefined, { mode: 'append', value: 'cd' }), 'cd');
});

test('concatenate joins with ;', () => {
  assert.equal(after('a', { mode: 'concatenate', value: 'b' }), 'a;b');
  assert.equal(after('a;b', { mode: 'concatenate', value: 'c' }), 'a;b;c');
  assert.equal(after(undefined, { mode: 'concatenate', value: 'first' }), 'first');
});

test('add, subtract, multiply, divide work on numbers written without a trailing .0', () => {
  assert.equal(after('2', { mode: 'add', value: '3' }), '5');
  assert.equal(after('2.5', { mode: 'add', value: '0.5' }), '3');
  assert.equal(after('0.1', { mode: 'add', value: '0.2' }), '0.3');
  assert.equal(after('10', { mode: 'subtract', value: '12.5' }), '-2.5');
  assert.equal(after('4', { mode: 'multiply', value: '2.5' }), '10');
  assert.equal(after('7', { mode: 'divide', value: '2' }), '3.5');
  assert.equal(after('1', { mode: 'divide', value: '3' }), '0.333333333333333');
  assert.equal(after('1,5', { mode: 'multiply', value: '2' }), '3');
});

test('an unparsable or unset side counts as 0', () => {
  assert.equal(after('abc', { mode: 'add', value: '4' }), '4');
  assert.equal(after(undefined, { mode: 'add', value: '1' }), '1');
  assert.equal(after('5', { mode: 'add', value: 'many' }), '5');
  assert.equal(after('5', { mode: 'multiply', value: '' }), '0');
  assert.equal(after('abc', { mode: 'subtract', value: '1' }), '-1');
});

test('division by 0 leaves the value unchanged', () => {
  assert.equal(after('7', { mode: 'divide', value: '0' }), '7');
  assert.equal(after('7.0', { mode: 'divide', value: 'zero' }), '7.0');
  assert.equal(after(undefined, { mode: 'divide', value: '0' }), undefined);
});

test('replace replaces every find by value; remove removes every find', () => {
  assert.equal(after('a-b-c', { mode: 'replace', find: '-', value: '+' }), 'a+b+c');
  assert.equal(after('Hello {{x}}', { mode: 'replace', find: 'Hello', value: 'Bye' }), 'Bye {{x}}');
  assert.equal(after('a-b-c', { mode: 'remove', find: '-' }), 'abc');
  assert.equal(after('aaa', { mode: 'replace', find: 'a', value: 'aa' }), 'aaaaaa');
  assert.equal(after('abc', { mode: 'replace', value: 'x' }), 'abc'); // no find: nothing to replace
  assert.equal(after('abc', { mode: 'remove', find: 'B' }), 'abc'); // case-sensitive
});

test('clear unsets the variable', () => {
  const [conversation] = started(botWith([{ type: 'setVariable', name: 'x', mode: 'clear' }]), { x: 'v' });
  assert.equal(Object.hasOwn(conversation.variables, 'x'), false);
});

test('an unknown mode or a missing name is skipped', () => {
  assert.equal(after('v', { mode: 'explode', value: 'w' }), 'v');
  const [conversation] = started(botWith([{ type: 'setVariable', value: 'w' }]));
  assert.equal(conversation.variables[''], undefined);
});

test('the input state is not modified by a turn', () => {
  const [conversation] = started(botWith([{ type: 'setVariable', name: 'n', mode: 'add', value: '1' }]));
  const before = conversation.state;
  conversation.start();
  assert.equal(before.variables.n, '1');
  assert.equal(conversation.variables.n, '2');
});
