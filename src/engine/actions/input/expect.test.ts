// The built-in `expect` kinds run in time linear in the text (issue 11) and accept exactly what
// they accepted before. Hostile texts run on a worker thread: a freeze fails the test by its
// timeout instead of freezing the runner (see test/support/off-thread.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { offThread } from '../../../../test/support/off-thread.js';
import { fitsExpect } from './expect.js';

const EXPECT = new URL('./expect.ts', import.meta.url);
// Generous: a backtracking pattern takes hours on these texts; a loaded machine takes seconds to start the threads.
const PROMPTLY = { timeout: 60_000 };

test('url: http:// + "a." × 2500 + " b" is refused promptly', PROMPTLY, async (t) => {
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['url', `http://${'a.'.repeat(2500)} b`], t.signal), false);
});

test('url: long runs of host characters, with and without a scheme, answer promptly', PROMPTLY, async (t) => {
  const hostile = [
    `https://${'a.'.repeat(50_000)} b`,
    `http://a.${'a'.repeat(100_000)} b`,
    `${'a.'.repeat(50_000)} b`,
    `${'a-'.repeat(50_000)}.b`,
    `www.${'a'.repeat(100_000)}:${'1'.repeat(100_000)}x`,
  ];
  for (const text of hostile) assert.equal(await offThread(EXPECT, 'fitsExpect', ['url', text], t.signal), false, text.slice(0, 20));
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['url', `https://${'a.'.repeat(50_000)}b/${'c'.repeat(1000)}`], t.signal), true);
});

test('email: "a@" + "a." × 100,000 + " b" is refused promptly', PROMPTLY, async (t) => {
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['email', `a@${'a.'.repeat(100_000)} b`], t.signal), false);
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['email', `${'a'.repeat(100_000)}@${'b.'.repeat(100_000)}c`], t.signal), true);
});

test('phone, number and date: long runs of their characters answer promptly', PROMPTLY, async (t) => {
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['phone', `${'1 '.repeat(100_000)}x`], t.signal), false);
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['number', `${'1'.repeat(100_000)}x`], t.signal), false);
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['number', `1.${'1'.repeat(100_000)}e${'1'.repeat(100_000)}x`], t.signal), false);
  assert.equal(await offThread(EXPECT, 'fitsExpect', ['date', `${'1'.repeat(100_000)}-1-1`], t.signal), false);
});

// The patterns the kinds used before issue 11. On short texts they are quick, and they are the
// reference: the linear checks must give the same answer for every text.
const BEFORE = {
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  url: (text: string) => /^https?:\/\/[^\s/?#]+\.[^\s/?#]+[^\s]*$/i.test(text) || /^([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?([/?#][^\s]*)?$/i.test(text),
};
const CHARS = ['a', 'B', 'z', '0', '9', '-', '.', '/', ':', '?', '#', '@', ' ', '\t', '\n', '\u00a0', '\u2028', 'é', '\u212a', 'ſ', '\ud83d', 'h', 't', 'p', 's', 'H', 'T', 'P', 'S', '_', '+'];
const PREFIXES = ['', 'http://', 'https://', 'HTTPS://', 'http:/', 'www.', 'a@', 'a.b', 'ex.org'];
const texts = fc.tuple(fc.constantFrom(...PREFIXES), fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 14 })).map(([p, s]) => p + s);

test('email and url accept exactly what the old patterns accepted', () => {
  fc.assert(
    fc.property(texts, (text) => {
      const trimmed = text.trim();
      if (trimmed === '') return;
      assert.equal(fitsExpect('email', text), BEFORE.email.test(trimmed), `email ${JSON.stringify(text)}`);
      assert.equal(fitsExpect('url', text), BEFORE.url(trimmed), `url ${JSON.stringify(text)}`);
    }),
    { numRuns: 20_000 },
  );
});

test('url and email: the cases that matter, spelled out', () => {
  const url = (t: string) => fitsExpect('url', t);
  for (const ok of ['HTTP://Example.org', 'https://a.b', 'http://a.b?x', 'https://a.b#c', 'example.org:8080', 'a.bc:1/x', 'sub.example.CO.uk#top', 'ex-ample.org?q=1']) assert.equal(url(ok), true, ok);
  for (const bad of [
    'http://.org',
    'http://a.',
    'http://a./x',
    'http://a/b.c',
    'https://a.b c',
    'example.c',
    'example.org:',
    'example.org:x',
    'example.org:80x',
    'a_b.org',
    'a..org',
    '.a.org',
    'example.org/ x',
    'example.1a',
    'https//a.b',
    'ftp://a.b',
  ])
    assert.equal(url(bad), false, bad);
  const email = (t: string) => fitsExpect('email', t);
  for (const ok of ['a@b.c', 'a@.b.c', 'a@b..c', 'a.b@c.d', 'ann@example.org']) assert.equal(email(ok), true, ok);
  for (const bad of ['a@.b', 'a@b.', 'a@b', 'a@@b.c', 'a b@c.d', 'a@b.c d', '@b.c', 'a@b\u00a0.c']) assert.equal(email(bad), false, bad);
});
