// Origin checks of the web channel. The Origin header comes from any visitor's browser (or
// anything else), so trimming it must take time linear in its length (issue 11).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offThread } from '../../../test/support/off-thread.js';
import { normalizeOrigin, originAllowed } from './origins.js';

test('normalizeOrigin lower-cases and drops trailing slashes', () => {
  assert.equal(normalizeOrigin(' HTTPS://Shop.Example.org/// '), 'https://shop.example.org');
  assert.equal(normalizeOrigin('https://a.example/x/'), 'https://a.example/x');
  assert.equal(normalizeOrigin('///'), null);
  assert.equal(normalizeOrigin('null'), null);
  assert.equal(originAllowed(['https://shop.example.org/'], 'https://SHOP.example.org'), true);
  assert.equal(originAllowed(['https://*.example.org'], 'https://a.example.org//'), true);
  assert.equal(originAllowed(['https://shop.example.org'], 'https://other.example.org'), false);
});

// `/\/+$/` retried its run of slashes from every slash: quadratic, 30 s and more for this text.
test('a long run of slashes not at the end is handled promptly', { timeout: 10_000 }, async (t) => {
  const origin = `https://shop.example.org${'/'.repeat(200_000)}x`;
  assert.equal(await offThread(new URL('./origins.ts', import.meta.url), 'normalizeOrigin', [origin], t.signal), origin);
});
