// The worker queue (worker-queue.ts) behind training and indexing: a job that goes wrong costs the
// thread only when the thread may be unsound, and a full queue is refused. Jobs report the thread
// they ran on (test/support/worker-jobs.ts), so a kept thread is told from a fresh one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkerJob } from '../../test/support/worker-jobs.js';
import { WorkerQueue } from './worker-queue.js';

class Busy extends Error {}
class OverTime extends Error {}
class Invalid extends Error {}

const queue = new WorkerQueue<WorkerJob, { value: number; threadId: number }>(
  {
    work: 'testing',
    module: new URL('../../test/support/worker-jobs.ts', import.meta.url).href,
    run: 'runJob',
    errors: {
      busy: (max) => new Busy(`queue of ${max}`),
      overMemory: (mb) => new Error(`over ${mb} MB`),
      overTime: (seconds) => new OverTime(`over ${seconds} s`),
    },
    invalid: { exportName: 'Refused', toError: (message) => new Invalid(message) },
  },
  // a hanging job is what crosses the time bound here, however fast the machine; the bound is
  // long enough for a fresh thread to load its module on a loaded machine (0.5 s was not, at a
  // load average of 16)
  { queue: 1, memoryMb: 64, timeoutMs: 5_000 },
);

test('jobs run in turn on one thread, and a job that refuses its input keeps the thread', async () => {
  const first = await queue.run({ does: 'answer', value: 1 });
  await assert.rejects(queue.run({ does: 'refuse', value: 2 }), (error: Error) => error instanceof Invalid && error.message === 'refused 2');
  const third = await queue.run({ does: 'answer', value: 3 });
  assert.equal(third.value, 3);
  assert.equal(third.threadId, first.threadId);
});

test('a job that fails gets "<work> failed", and the next job a fresh thread', async () => {
  const before = await queue.run({ does: 'answer', value: 1 });
  await assert.rejects(queue.run({ does: 'fail', value: 2 }), /^Error: testing failed: Error: failed 2/);
  const next = await queue.run({ does: 'answer', value: 3 });
  assert.equal(next.value, 3);
  assert.notEqual(next.threadId, before.threadId);
});

test('a job past its time is refused, and the next job gets its own answer on a fresh thread', async () => {
  const before = await queue.run({ does: 'answer', value: 1 });
  await assert.rejects(queue.run({ does: 'hang', value: 2 }), OverTime);
  const next = await queue.run({ does: 'answer', value: 3 });
  assert.equal(next.value, 3);
  assert.notEqual(next.threadId, before.threadId);
});

test("past the queue: refused with the caller's error, the running and waiting jobs still end", async () => {
  const running = queue.run({ does: 'hang', value: 1 });
  const waiting = queue.run({ does: 'answer', value: 2 });
  assert.deepEqual(queue.load, { running: true, waiting: 1 });
  await assert.rejects(queue.run({ does: 'answer', value: 3 }), (error: Error) => error instanceof Busy && error.message === 'queue of 1');
  await assert.rejects(running, OverTime);
  assert.equal((await waiting).value, 2);
});

test('a reserved place counts as a job: a full queue refuses the reservation, a released or used one frees it', async () => {
  const place = queue.reserve();
  const waiting = queue.reserve();
  // queue 1: one running (the first place) and one waiting (the second) is full
  assert.throws(
    () => queue.reserve(),
    (error: Error) => error instanceof Busy && error.message === 'queue of 1',
  );
  await assert.rejects(queue.run({ does: 'answer', value: 9 }), Busy);
  waiting.release();
  waiting.release(); // a second release gives nothing back twice
  const other = queue.reserve();
  assert.throws(() => queue.reserve(), Busy);
  const [a, b] = await Promise.all([place.run({ does: 'answer', value: 1 }), other.run({ does: 'answer', value: 2 })]);
  assert.deepEqual([a.value, b.value], [1, 2]);
  assert.deepEqual(queue.load, { running: false, waiting: 0 });
  assert.equal((await queue.run({ does: 'answer', value: 3 })).value, 3);
});
