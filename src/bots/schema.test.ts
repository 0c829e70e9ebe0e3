import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { invalidBot, invalidBots, supportBot, type BotDoc } from '../../test/fixtures/invalid-bots.js';
import { actionRegistry } from '../engine/registry.js';
import { actionDefName, buildBotSchema, type JsonSchema } from './schema.js';
import { schemaCheck } from './validate.js';

function strictCompile(schema: JsonSchema) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/** Every object schema that lists properties, with its location. */
function* objectSchemas(node: unknown, at = '#'): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) yield* objectSchemas(n, `${at}/${i}`);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const obj = node as Record<string, unknown>;
  if ('properties' in obj && !at.endsWith('/if')) yield [at, obj];
  for (const [k, v] of Object.entries(obj)) if (k !== 'const' && k !== 'enum') yield* objectSchemas(v, `${at}/${k}`);
}

describe('buildBotSchema', () => {
  const schema = buildBotSchema();

  it('is a publishable schema document', () => {
    assert.equal(typeof schema.$id, 'string');
    assert.equal(typeof schema.title, 'string');
    assert.equal(typeof schema.description, 'string');
    const defs = schema.$defs as Record<string, unknown>;
    for (const name of ['actions', 'action', 'buttonOrLink', 'trigger', 'behaviour', 'interaction']) assert.ok(defs[name], name);
    for (const type of actionRegistry.keys()) assert.ok(defs[actionDefName(type)], type);
    assert.equal(buildBotSchema(actionRegistry, { id: 'https://bots.example.org/schema/bot.json' }).$id, 'https://bots.example.org/schema/bot.json');
  });

  it('dispatches every action type of bot-format.md', () => {
    const spec = [
      'text',
      'image',
      'video',
      'audio',
      'file',
      'button',
      'link',
      'buttons',
      'carousel',
      'delay',
      'goTo',
      'bookmark',
      'setVariable',
      'setTag',
      'dropTag',
      'variableSwitch',
      'tagSwitch',
      'input',
      'operator',
      'callApi',
      'shareUrl',
      'privacy',
      'forget',
      'stop',
      'ai', // understanding.md
      'knowledge', // knowledge.md
      'agent',
    ]; // agents.md
    const action = (schema.$defs as Record<string, { properties: { type: { enum: string[] } } }>).action!;
    assert.deepEqual([...action.properties.type.enum].sort(), [...spec].sort());
  });

  it('compiles in ajv strict mode and accepts the support bot', () => {
    const validate = strictCompile(schema);
    assert.equal(validate(supportBot()), true, JSON.stringify(validate.errors));
  });

  it('forbids unknown properties everywhere except the two maps', () => {
    // The two maps are open by design; the dispatchers only pick a type, whose own schema is closed.
    const open = ['#/properties/settings/properties/channels', '#/properties/variables', '#/$defs/action', '#/$defs/buttonOrLink'];
    for (const [at, obj] of objectSchemas(schema)) {
      if (open.includes(at)) continue;
      assert.equal(obj.additionalProperties, false, `${at} allows unknown properties`);
    }
  });

  it('does not require the ids the server generates', () => {
    const bot = supportBot();
    delete bot.behaviours[0].interactions[0].actions[2].buttons[0].id;
    delete bot.behaviours[1].interactions[0].actions[0].id;
    assert.equal(strictCompile(schema)(bot), true);
  });

  it('rejects exactly what the validator rejects on schema grounds (fixtures and random damage)', () => {
    const full = strictCompile(schema);
    const agree = (doc: BotDoc) => assert.equal(full(doc), schemaCheck(doc, actionRegistry).problems.length === 0, JSON.stringify(full.errors));
    for (const fixture of invalidBots) agree(invalidBot(fixture));
    const places: ((b: BotDoc) => Record<string, unknown>)[] = [
      (b) => b,
      (b) => b.settings,
      (b) => b.behaviours[1],
      (b) => b.behaviours[0].interactions[0].actions[2],
      (b) => b.behaviours[0].interactions[0].actions[2].buttons[1],
      (b) => b.behaviours[0].interactions[1].actions[0].cards[1],
      (b) => b.behaviours[1].interactions[1].actions[2].onSuccess[0],
      (b) => b.behaviours[1].interactions[0].actions[0],
      (b) => b.triggers[0].actions[0],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...places), fc.nat(), fc.option(fc.jsonValue({ maxDepth: 2 })), (place, n, value) => {
        const bot = supportBot();
        const target = place(bot);
        const keys = [...Object.keys(target), 'extra'];
        const key = keys[n % keys.length]!;
        if (value === null) delete target[key];
        else target[key] = value;
        agree(bot);
      }),
      { numRuns: 500 },
    );
  });
});
