import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storable } from './driver.js';

test('NUL and lone surrogates in a text become U+FFFD; pairs and other values stay', () => {
  assert.equal(storable('a\u0000b\u0000'), 'a\ufffdb\ufffd');
  assert.equal(storable('x\ud800 \udfff y \u{1f600}'), 'x\ufffd \ufffd y \u{1f600}');
  assert.equal(storable('plain'), 'plain');
  assert.equal(storable(7), 7);
  assert.equal(storable(null), null);
  assert.equal(storable(undefined), null);
  const bytes = new Uint8Array([0, 1]);
  assert.equal(storable(bytes), bytes);
});

test('inside a JSON text the escapes are replaced, in keys too; escaped backslashes and pairs stay', () => {
  const json = JSON.stringify({ t: 'a\u0000b', 'k\ud800': ['\udc00', '\u{1f600}', '\\u0000 typed', '\\\u0000'] });
  const stored = storable(json) as string;
  assert.deepEqual(JSON.parse(stored), { t: 'a\ufffdb', 'k\ufffd': ['\ufffd', '\u{1f600}', '\\u0000 typed', '\\\ufffd'] });
  assert.equal(storable('["\\ud83d\\ude00"]'), '["\u{1f600}"]');
  assert.equal(storable('{"t":"\\u0001 \\\\u0000"}'), '{"t":"\\u0001 \\\\u0000"}', 'no NUL or surrogate escape: as it was');
});

test('a JSON text held in a JSON string (message parts in a batch) is made storable too', () => {
  const inner = JSON.stringify([{ Text: 'a\u0000b\ud800' }]);
  const outer = JSON.stringify([{ n: 0, parts: inner }]);
  const stored = JSON.parse(storable(outer) as string);
  assert.deepEqual(JSON.parse(stored[0].parts), [{ Text: 'a\ufffdb\ufffd' }]);
});

test('a text that is not JSON keeps a typed escape as it is', () => {
  assert.equal(storable('type \\u0000 to see'), 'type \\u0000 to see');
});
