import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { supportBot } from '../../test/fixtures/invalid-bots.js';
import { BotParseError, parseBotDocument } from './parse.js';
import { validateBotFile } from './validate.js';

const json = readFileSync(new URL('../../assets/support.bot.json', import.meta.url), 'utf8');

function parseError(raw: string, contentType?: string): BotParseError {
  try {
    parseBotDocument(raw, contentType);
  } catch (err) {
    assert.ok(err instanceof BotParseError);
    return err;
  }
  assert.fail('expected a BotParseError');
}

describe('parseBotDocument', () => {
  it('reads a block scalar with an empty line in it or after it (the bounds scanner looped forever on one)', () => {
    // a hang is this test's failure: before the fix the scanner never returned on the empty lines
    assert.deepEqual(parseBotDocument('a: |\n  x\n\n  y\n\nb: 1\n', 'application/yaml'), { a: 'x\n\ny\n', b: 1 });
    assert.deepEqual(parseBotDocument('nlu:\n- intent: greet\n  examples: |\n    - hey\n\n- intent: bye\n  examples: |\n    - bye\n'), {
      nlu: [
        { intent: 'greet', examples: '- hey\n' },
        { intent: 'bye', examples: '- bye\n' },
      ],
    });
  });

  it('reads JSON text, bytes and already-parsed objects', () => {
    assert.deepEqual(parseBotDocument(json), supportBot());
    assert.deepEqual(parseBotDocument(Buffer.from(`\uFEFF${json}`), 'application/json'), supportBot());
    const doc = supportBot();
    assert.equal(parseBotDocument(doc), doc);
  });

  it('reads YAML by content type or by its look, into a valid bot', () => {
    const yaml = stringify(supportBot());
    assert.deepEqual(parseBotDocument(yaml, 'application/yaml'), supportBot());
    assert.deepEqual(parseBotDocument(yaml), supportBot());
    assert.deepEqual(parseBotDocument(`{"a": 1}`, 'text/yaml; charset=utf-8'), { a: 1 });
    assert.equal(validateBotFile(parseBotDocument(yaml)).ok, true);
  });

  it('throws a typed INVALID_BOT error for text that does not parse', () => {
    for (const [raw, type, what] of [
      ['{"format": ', undefined, /invalid JSON/],
      ['format: [unclosed', undefined, /invalid YAML/],
      ['a: 1\na: 2\n', 'application/yaml', /invalid YAML/],
      ['', undefined, /empty/],
      ['  \n', 'application/json', /empty/],
    ] as const) {
      const err = parseError(raw, type);
      assert.equal(err.code, 'INVALID_BOT');
      assert.equal(err.problems.length, 1);
      assert.equal(err.problems[0]!.Path, '$');
      assert.match(err.problems[0]!.Message, what);
    }
  });

  it('refuses YAML alias bombs', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    assert.match(parseError(lines.join('\n')).problems[0]!.Message, /invalid YAML/);
  });

  it('leaves non-object documents to the validator', () => {
    assert.equal(parseBotDocument('hello'), 'hello');
    assert.deepEqual(parseBotDocument('[1, 2]'), [1, 2]);
    assert.equal(validateBotFile(parseBotDocument('- 1\n- 2\n')).ok, false);
  });
});
