// utf8-slices.ts: text decoded a slice at a time equals text decoded whole, whatever the slices cut.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeUtf8InSlices, NotUtf8Error } from './utf8-slices.js';

// one, two, three and four bytes a character, and a combining mark
const SAMPLE = 'a é € 😀 e\u0301 Ω 中文 🇩🇪 z\n';

describe('decodeUtf8InSlices', () => {
  test('characters of 1 to 4 bytes cut by every slice border decode as one', async () => {
    const bytes = Buffer.from(SAMPLE.repeat(3));
    for (let slice = 1; slice <= 9; slice++) {
      const { text, blank } = await decodeUtf8InSlices(bytes, slice);
      assert.equal(text, SAMPLE.repeat(3), `slice ${slice}`);
      assert.equal(blank, false);
    }
  });

  test('a byte order mark is dropped at the start only, as a whole decode drops it', async () => {
    const bytes = Buffer.from('\ufeffab\ufeffc');
    for (const slice of [1, 2, 3, 4, 1024]) assert.equal((await decodeUtf8InSlices(bytes, slice)).text, 'ab\ufeffc');
  });

  test('a byte that is not UTF-8 is refused, also when its sequence is cut by a border or ends the data', async () => {
    const cases: Array<[string, Buffer]> = [
      ['a lone continuation byte', Buffer.from([0x61, 0x80, 0x62])],
      ['a sequence broken after a border', Buffer.from([0x61, 0xe2, 0x82, 0x41, 0x62])],
      ['a character cut at the end', Buffer.from([0x61, 0x62, 0xf0, 0x9f, 0x98])],
      ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ];
    for (const [name, bytes] of cases) {
      for (const slice of [1, 2, 3, 64]) await assert.rejects(decodeUtf8InSlices(bytes, slice), NotUtf8Error, `${name}, slice ${slice}`);
    }
  });

  test('blank is what trim() calls empty, known across slices', async () => {
    const cases: Array<[string, boolean]> = [
      ['', true],
      [' \n\t\r\u00a0\u2003\u3000\ufeff \u2028', true],
      [`${' '.repeat(50)}x${' '.repeat(50)}`, false],
      [`${'\n'.repeat(99)}é`, false],
    ];
    for (const [text, blank] of cases) {
      assert.equal(text.trim() === '', blank, 'the case itself');
      for (const slice of [1, 7, 4096]) assert.equal((await decodeUtf8InSlices(Buffer.from(text), slice)).blank, blank, JSON.stringify(text));
    }
  });

  test('other callbacks run between slices: a large text does not hold the event loop', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const { text } = await decodeUtf8InSlices(Buffer.from('ab'.repeat(1000)), 256);
    assert.equal(text.length, 2000);
    assert.equal(ran, true, 'a callback queued before the decode ran before it ended');
  });
});
