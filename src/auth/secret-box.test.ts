import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, ConfigError } from '../config.js';
import { keyFromText, SecretBox } from './secret-box.js';
import { loadServerKey } from './secret-key.js';

test('keyFromText: 64 hex digits and base64(url) of 32 bytes are those bytes; a passphrase is stretched, the same every time', () => {
  const bytes = crypto.randomBytes(32);
  assert.deepEqual(keyFromText(bytes.toString('hex')), bytes);
  assert.deepEqual(keyFromText(bytes.toString('hex').toUpperCase()), bytes);
  assert.deepEqual(keyFromText(bytes.toString('base64')), bytes);
  assert.deepEqual(keyFromText(`${bytes.toString('base64url')}\n`), bytes);
  const stretched = keyFromText('correct horse battery staple');
  assert.equal(stretched.length, 32);
  assert.deepEqual(keyFromText('correct horse battery staple'), stretched);
  assert.notDeepEqual(keyFromText('correct horse battery stapler'), stretched);
  assert.throws(() => keyFromText('too short'), /at least 16 characters/);
});

test('COLLOQUY_SECRET_KEY shorter than 16 characters is a configuration error; unset is null', () => {
  assert.throws(() => loadConfig({ COLLOQUY_SECRET_KEY: 'short' }), ConfigError);
  assert.equal(loadConfig({}).secretKey, null);
  assert.equal(loadConfig({ COLLOQUY_SECRET_KEY: ' a long enough passphrase ' }).secretKey, 'a long enough passphrase');
});

test('SecretBox: AES-GCM round trip, v1 prefix, a fresh nonce per value, bound to its context, tamper-evident', () => {
  const box = new SecretBox(crypto.randomBytes(32));
  const one = box.encrypt('the secret', 'bots.api_secret:a');
  const two = box.encrypt('the secret', 'bots.api_secret:a');
  assert.match(one, /^v1:[\w-]+$/);
  assert.notEqual(one, two);
  assert.equal(box.decrypt(one, 'bots.api_secret:a'), 'the secret');
  assert.equal(box.decrypt(box.encrypt('', 'c'), 'c'), '');
  assert.equal(box.decrypt(box.encrypt('ünïcødé ✓', 'c'), 'c'), 'ünïcødé ✓');
  assert.throws(() => box.decrypt(one, 'bots.api_secret:b'), 'another row cannot use it');
  assert.throws(() => new SecretBox(crypto.randomBytes(32)).decrypt(one, 'bots.api_secret:a'), 'another key cannot read it');
  const raw = Buffer.from(one.slice(3), 'base64url');
  raw[20] ^= 1;
  assert.throws(() => box.decrypt(`v1:${raw.toString('base64url')}`, 'bots.api_secret:a'), 'a changed byte is detected');
  assert.throws(() => box.decrypt('the secret', 'bots.api_secret:a'), /version v1/);
  assert.throws(() => box.decrypt('v2:abc', 'bots.api_secret:a'), /version v1/);
});

test('SecretBox.check tells keys apart without revealing them', () => {
  const key = crypto.randomBytes(32);
  assert.equal(new SecretBox(key).check, new SecretBox(Buffer.from(key)).check);
  assert.notEqual(new SecretBox(crypto.randomBytes(32)).check, new SecretBox(key).check);
  assert.ok(!new SecretBox(key).check.includes(key.toString('hex')));
});

test('loadServerKey: the key file is made once (0600), then read; several loaders at once agree', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-key-'));
  try {
    const dataDir = path.join(dir, 'not-yet-there');
    const boxes = [0, 1, 2].map(() => loadServerKey({ dataDir }));
    const file = path.join(dataDir, 'secret.key');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dataDir), ['secret.key'], 'no temporary file is left');
    assert.equal(new Set(boxes.map((b) => b.box.check)).size, 1);
    assert.match(boxes[0].source, /secret\.key/);
    assert.equal(loadServerKey({ dataDir, secretKey: 'x'.repeat(20) }).source, 'COLLOQUY_SECRET_KEY');
    fs.writeFileSync(file, 'short\n');
    assert.throws(() => loadServerKey({ dataDir }), /holds no usable key/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
