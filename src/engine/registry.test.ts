import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { actionRegistry } from './registry.js';

test('every definition is registered under its own type; button, input and agent need ids', () => {
  for (const [type, definition] of actionRegistry) assert.equal(definition.type, type);
  assert.deepEqual(
    [...actionRegistry.values()]
      .filter((d) => d.needsId)
      .map((d) => d.type)
      .sort(),
    ['agent', 'button', 'input'],
  );
  assert.equal(actionRegistry.size, 27);
});

test('every action folder is registered (one folder per type; media holds four)', () => {
  const folders = readdirSync(new URL('./actions/', import.meta.url), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  const types = new Set(actionRegistry.keys());
  for (const folder of folders) if (folder !== 'media') assert.ok(types.has(folder), `folder ${folder} is not in the registry`);
  for (const type of types) assert.ok(folders.includes(type) || ['image', 'video', 'audio', 'file'].includes(type), `${type} has no folder`);
});

test('schemas follow the convention: closed objects, type const, required type, optional id', () => {
  for (const [type, { schema }] of actionRegistry) {
    assert.equal(schema.type, 'object', type);
    assert.equal(schema.additionalProperties, false, type);
    const properties = schema.properties as Record<string, unknown>;
    assert.deepEqual(properties.type, { const: type });
    assert.ok(properties.id, `${type} allows an id`);
    assert.ok((schema.required as string[]).includes('type'));
    assert.ok(!(schema.required as string[]).includes('id'), `${type} must not require id`);
  }
});

/** A minimal whole-file schema built the way bots/schema.ts does: enough to check the fragments. */
function assembled() {
  const defs: Record<string, unknown> = {};
  for (const [type, { schema }] of actionRegistry) defs[`action-${type}`] = schema;
  const dispatch = (types: string[]) => ({
    type: 'object',
    required: ['type'],
    properties: { type: { enum: types } },
    allOf: types.map((t) => ({ if: { properties: { type: { const: t } } }, then: { $ref: `#/$defs/action-${t}` } })),
  });
  defs.action = dispatch([...actionRegistry.keys()]);
  defs.actions = { type: 'array', items: { $ref: '#/$defs/action' } };
  defs.buttonOrLink = dispatch(['button', 'link']);
  const trigger = { type: 'object', properties: { actions: { $ref: '#/$defs/actions' } } };
  return {
    $defs: defs,
    type: 'object',
    properties: {
      triggers: { type: 'array', items: trigger },
      behaviours: {
        type: 'array',
        items: {
          type: 'object',
          properties: { triggers: { type: 'array', items: trigger }, interactions: { type: 'array', items: { type: 'object', properties: { actions: { $ref: '#/$defs/actions' } } } } },
        },
      },
    },
  };
}

test('the example support bot is valid against the action schemas', () => {
  const validate = new Ajv2020.default({ allErrors: true }).compile(assembled());
  const bot = JSON.parse(readFileSync(new URL('../../assets/support.bot.json', import.meta.url), 'utf8'));
  assert.equal(validate(bot), true, JSON.stringify(validate.errors, null, 2));
});

test('the action schemas reject unknown fields, missing fields and bad values', () => {
  const validate = new Ajv2020.default({ allErrors: true }).compile(assembled());
  const withActions = (actions: unknown[]) => ({ behaviours: [{ interactions: [{ actions }] }] });
  const bad: unknown[] = [
    { type: 'text' },
    { type: 'text', text: 'x', colour: 'red' },
    { type: 'goTo', mode: 'sideways' },
    { type: 'setVariable', name: 'x', mode: 'explode' },
    { type: 'variableSwitch', variable: 'x', criteria: 'equals' },
    { type: 'input', variable: 'x', expect: 'any' },
    { type: 'input', variable: 'x', expect: { regex: 1 }, onSuccess: [] },
    { type: 'buttons', text: 't', buttons: [{ type: 'text', text: 'not a button' }] },
    { type: 'carousel', cards: [{ title: 't', buttons: [], extra: 1 }] },
    { type: 'callApi', method: 'GET', url: 'https://x.org', timeoutMs: 60000 },
    { type: 'delay', ms: -1 },
    { type: 'button', id: 'not-a-guid', text: 'x', onClick: [] },
    { type: 'shareUrl', mode: 'view', hours: 0 },
  ];
  for (const action of bad) assert.equal(validate(withActions([action])), false, JSON.stringify(action));
  const good: unknown[] = [
    { type: 'text', texts: ['a', 'b'] },
    { type: 'stop', id: '6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e99' },
    { type: 'input', variable: 'x', expect: 'yes|no', onSuccess: [{ type: 'stop' }] },
    { type: 'callApi', method: 'POST', url: 'https://x.org', headers: { A: 'b' }, body: '{}', async: true, onError: [] },
    { type: 'operator', mode: 'takeover', operator: 'a@b.org' },
  ];
  for (const action of good) assert.equal(validate(withActions([action])), true, JSON.stringify(validate.errors));
});
