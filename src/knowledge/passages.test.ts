// Cutting a document into passages (knowledge.md "Passages") on the largest inputs it takes: one
// long paragraph (its cost grew with the square of its length) and one long word.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offThread } from '../../test/support/off-thread.js';
import { MAX_PASSAGE_CHARS, type Passage } from './passages.js';

const MB2 = 2 * 1024 * 1024;

/**
 * A bound on a hang, not a speed check: the cut takes well under a second; before it was linear,
 * over a minute. It runs on a worker thread, so that the runner's timer can fire (off-thread.ts).
 */
const HANG = { timeout: 20_000 };
const cut = (text: string, signal: AbortSignal) => offThread<Passage[]>(new URL('./passages.ts', import.meta.url), 'cutMarkdown', [text], signal);

test('a 2 MB paragraph with no line break: passages of at most the limit, the whole text in order', HANG, async (t) => {
  const sentences: string[] = [];
  for (let i = 0, size = 0; size < MB2; i++) {
    const sentence = i % 97 === 0 ? `A long clause ${'without any full stop '.repeat(120)}ends here.` : `Clause ${i} sets rule r${i} for item ${i * 7}.`;
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  const text = sentences.join(' ').slice(0, MB2).trimEnd();
  const passages = await cut(text, t.signal);
  assert.deepEqual(
    passages.filter((p) => p.text.length > MAX_PASSAGE_CHARS),
    [],
  );
  assert.deepEqual(
    passages.filter((p) => p.heading !== ''),
    [],
  );
  // cut only at spaces, each of which is dropped with the passage's trim: joined back by one, the text
  assert.equal(passages.map((p) => p.text).join(' '), text);
  assert.ok(passages.length >= Math.ceil(text.length / MAX_PASSAGE_CHARS), `${passages.length} passages`);
});

test('a 2 MB word (no space, no sentence end): cut every MAX_PASSAGE_CHARS characters', HANG, async (t) => {
  const text = 'abcdefghij'.repeat(MB2 / 10);
  const passages = await cut(text, t.signal);
  assert.equal(passages.length, Math.ceil(text.length / MAX_PASSAGE_CHARS));
  assert.deepEqual(
    passages.slice(0, -1).filter((p) => p.text.length !== MAX_PASSAGE_CHARS),
    [],
  );
  assert.equal(passages.map((p) => p.text).join(''), text);
});
