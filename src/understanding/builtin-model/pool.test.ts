// The built-in model's thread pool with the real model: unit vectors, a text past the bound, the
// bounded queue (a flood is refused at once with ERROR), a crashed and a hung thread replaced,
// the caller's deadline (TIMEOUT), and stop(). One pool for the file: the model loads once.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { similarity } from '../../integrations/embeddings-client.js';
import { CRASH_TEXT, HANG_TEXT } from './encoder.js';
import { BuiltinModel, DEFAULT_BUILTIN_MODEL_LIMITS, MAX_TEXT_CHARS } from './pool.js';

// a hung thread is given up after 3 s (once the model is loaded; loading may take 120 s on a busy machine)
const model = new BuiltinModel({ ...DEFAULT_BUILTIN_MODEL_LIMITS, queue: 2, jobTimeoutMs: 3_000, loadTimeoutMs: 120_000, testHooks: true });
after(() => model.stop());
// the first job loads the model (seconds): no caller deadline should cut it
const LONG = { timeoutMs: 120_000 };

test('vectors of length 1, 512 numbers, nearer for texts about the same thing', async () => {
  const result = await model.embed(['can I bring my dog', 'pets are welcome in every room', 'the invoice is sent by email'], LONG);
  assert.equal(result.status, 'OK');
  assert.equal(result.tokens, 0);
  assert.deepEqual(
    result.vectors.map((v) => v.length),
    [512, 512, 512],
  );
  for (const v of result.vectors) assert.ok(Math.abs(similarity(v, v) - 1) < 1e-5);
  const [dog, pets, invoice] = result.vectors;
  assert.ok(similarity(dog, pets) > similarity(dog, invoice) + 0.1, `${similarity(dog, pets)} vs ${similarity(dog, invoice)}`);
});

test(`a text past ${MAX_TEXT_CHARS} characters is cut, and encoded like its first ${MAX_TEXT_CHARS}`, async () => {
  const head = 'opening hours of the shop on sundays. '.repeat(60).slice(0, MAX_TEXT_CHARS);
  const result = await model.embed([head + ' and then something else entirely about football'.repeat(500), head], LONG);
  assert.equal(result.status, 'OK');
  assert.ok(similarity(result.vectors[0], result.vectors[1]) > 0.9999);
});

test('a flood: past the queue, texts are refused at once with ERROR; the rest are answered', async () => {
  const flood = await Promise.all(Array.from({ length: 8 }, (_, i) => model.embed([`flood text number ${i}`], LONG)));
  const statuses = flood.map((r) => r.status);
  // one running and two waiting (queue 2) are answered, the other five refused at once
  assert.deepEqual(statuses.filter((s) => s === 'OK').length, 3, statuses.join());
  assert.deepEqual(statuses.filter((s) => s === 'ERROR').length, 5, statuses.join());
  assert.deepEqual(model.load, { running: 0, waiting: 0 });
});

test('a repeated text is answered from the cache, even with the queue full', async () => {
  const first = await model.embed(['where is my parcel'], LONG);
  const busy = [model.embed(['busy one'], LONG), model.embed(['busy two'], LONG), model.embed(['busy three'], LONG)];
  const again = await model.embed(['where is my parcel'], LONG);
  assert.equal(again.status, 'OK');
  assert.deepEqual(again.vectors[0], first.vectors[0]);
  assert.equal((await model.embed(['not cached, queue full'], LONG)).status, 'ERROR');
  await Promise.all(busy);
});

test('a crashed thread ends its job with ERROR, and the next job gets a fresh thread', async () => {
  assert.equal((await model.embed([CRASH_TEXT], LONG)).status, 'ERROR');
  assert.equal((await model.embed(['after the crash'], LONG)).status, 'OK');
});

test('a hung thread is given up after the job bound (ERROR) and replaced', async () => {
  assert.equal((await model.embed([HANG_TEXT], LONG)).status, 'ERROR');
  assert.equal((await model.embed(['after the hang'], LONG)).status, 'OK');
});

test("past the caller's deadline the answer is TIMEOUT, a hung thread's too", async () => {
  const slow = await model.embed([HANG_TEXT.replace('hang', 'wait'), 'a text nobody asked before'], { timeoutMs: 0 });
  assert.equal(slow.status, 'TIMEOUT');
  const hung = model.embed([HANG_TEXT], { timeoutMs: 50 });
  assert.equal((await hung).status, 'TIMEOUT');
});

test('after stop() every text is ERROR, at once', async () => {
  const other = new BuiltinModel({ ...DEFAULT_BUILTIN_MODEL_LIMITS, testHooks: true });
  const hung = other.embed([HANG_TEXT], LONG);
  other.stop();
  assert.equal((await hung).status, 'ERROR');
  assert.equal((await other.embed(['anything'], LONG)).status, 'ERROR');
});
