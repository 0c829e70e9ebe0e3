import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate } from './template.js';

test('replaces {{name}} by the variable', () => {
  assert.equal(renderTemplate('Hi {{name}}, welcome to {{company}}!', { name: 'Ann', company: 'ACME' }), 'Hi Ann, welcome to ACME!');
});

test('an unset variable renders as the empty string', () => {
  assert.equal(renderTemplate('Hi {{name}}!', {}), 'Hi !');
});

test('{{name|default}} uses the default when unset or empty, the value otherwise', () => {
  assert.equal(renderTemplate('Hi {{name|friend}}!', {}), 'Hi friend!');
  assert.equal(renderTemplate('Hi {{name|friend}}!', { name: '' }), 'Hi friend!');
  assert.equal(renderTemplate('Hi {{name|friend}}!', { name: 'Ann' }), 'Hi Ann!');
  assert.equal(renderTemplate('{{n|}}', {}), '');
});

test('spaces around the name and the default are ignored', () => {
  assert.equal(renderTemplate('{{ name }} / {{ other | two words }}', { name: 'x' }), 'x / two words');
});

test('[[name]] tagged text is not a template', () => {
  assert.equal(renderTemplate('[[name]] and {{name}}', { name: 'Ann' }), '[[name]] and Ann');
});

test('text without placeholders and malformed braces are returned unchanged', () => {
  assert.equal(renderTemplate('plain text', { a: 'b' }), 'plain text');
  assert.equal(renderTemplate('{{}} {{ }} { {a} } {{a', { a: 'b' }), '{{}} {{ }} { {a} } {{a');
  assert.equal(renderTemplate('^\\d{6}$', {}), '^\\d{6}$');
});

test('inherited object properties are not variables', () => {
  assert.equal(renderTemplate('[{{constructor}}][{{toString|none}}]', {}), '[][none]');
});

test('a replaced value is not rendered again', () => {
  assert.equal(renderTemplate('{{a}}', { a: '{{b}}', b: 'x' }), '{{b}}');
});

test('{{secret.NAME}} is never a variable: nothing in a text, a slot in a request', () => {
  const vars = { 'secret.api': 'from-a-user', x: 'y' };
  assert.equal(renderTemplate('key={{secret.api}}&x={{x}}', vars), 'key=&x=y');
  assert.equal(renderTemplate('key={{ secret.api }}&x={{x}}', vars, { secretSlots: true }), 'key=\uFDD0api\uFDD1&x=y');
  // a name the API would refuse is no slot
  assert.equal(renderTemplate('{{secret.a-b}}', vars, { secretSlots: true }), '');
});

test('a value (or the text) cannot make a secret slot: the slot marks are removed from all but the placeholder', () => {
  const vars = { a: '\uFDD0api\uFDD1', open: '\uFDD0', close: 'api\uFDD1', braces: '{{secret.api}}' };
  assert.equal(renderTemplate('{{a}}|{{open}}{{close}}|{{braces}}|\uFDD0api\uFDD1', vars, { secretSlots: true }), 'api|api|{{secret.api}}|api');
  assert.equal(renderTemplate('{{none|\uFDD0api\uFDD1}}', vars, { secretSlots: true }), 'api');
});
