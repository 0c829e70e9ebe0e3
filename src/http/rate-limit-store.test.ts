// Counting with and without the other nodes (rate-limit-store.ts, window-reporter.ts), over a
// table double that adds up reports the way rate_windows does, or fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RateWindowTable, WindowReport, WindowTotal } from './rate-window-port.js';
import { reportStep, WindowCounters } from './rate-limit-store.js';
import { WindowReporter } from './window-reporter.js';

function tableDouble(options: { fail?: boolean } = {}) {
  const rows = new Map<string, WindowTotal>();
  const statements: WindowReport[][] = [];
  const table = {
    async report(reports: WindowReport[], now: number) {
      statements.push(reports.map((r) => ({ ...r })));
      await new Promise((resolve) => setImmediate(resolve));
      if (options.fail) throw new Error('the database does not answer');
      const totals = new Map<string, WindowTotal>();
      for (const r of reports) {
        const row = rows.get(r.key);
        const next = row ? { startedAt: row.startedAt, count: row.count + r.delta } : { startedAt: now, count: r.delta };
        rows.set(r.key, next);
        totals.set(r.key, next);
      }
      return totals;
    },
    async prune() {
      return 0;
    },
  } as unknown as RateWindowTable;
  return { table, rows, statements };
}

const MINUTE = 60_000;

test('the report step is a twentieth of the allowance, at least 1', () => {
  assert.deepEqual([1, 10, 30, 40, 60, 6000].map(reportStep), [1, 1, 1, 2, 3, 300]);
});

test('alone, a node counts in memory and never waits', () => {
  const counters = new WindowCounters();
  const counts = [1, 2, 3].map(() => counters.incr('k', MINUTE, 2));
  assert.deepEqual(
    counts.map((c) => (c as { current: number }).current),
    [1, 2, 3],
  );
  assert.equal(counters.peek('k', MINUTE).current, 3);
});

test("a node reports every step, learns the other nodes' counts, and counts on from there", async () => {
  const { table, rows } = tableDouble();
  const a = new WindowCounters({ reporter: new WindowReporter(table, () => undefined), namespace: 'x:' });
  const b = new WindowCounters({ reporter: new WindowReporter(table, () => undefined), namespace: 'x:' });
  for (let i = 0; i < 5; i++) await b.incr('k', MINUTE, 60); // step 3: one report of 3, 2 pending
  assert.equal(rows.get('x:k')!.count, 3);
  assert.ok(!(a.incr('k', MINUTE, 60) instanceof Promise), 'below the step nothing waits');
  assert.equal((await a.incr('k', MINUTE, 60)).current, 2);
  assert.equal((await a.incr('k', MINUTE, 60)).current, 6, "its 3 and B's 3");
  assert.equal(b.peek('k', MINUTE).current, 5, 'B has not heard of A yet');
});

test('concurrent requests on one node share the reports: never a step of them unknown to the others', async () => {
  const { table, rows, statements } = tableDouble();
  const counters = new WindowCounters({ reporter: new WindowReporter(table, () => undefined), namespace: 'x:' });
  const counts = await Promise.all(Array.from({ length: 10 }, () => counters.incr('k', MINUTE, 40)));
  assert.deepEqual(
    counts.map((c) => c.current).sort((x, y) => x - y),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  assert.equal(rows.get('x:k')!.count, 10);
  assert.ok(statements.length <= 5, `${statements.length} statements for 10 requests at step 2`);
});

test('a failed report: the node decides on its own count, does not retry for a second, and reports it later', async () => {
  const { table, statements } = tableDouble({ fail: true });
  const errors: unknown[] = [];
  const counters = new WindowCounters({ reporter: new WindowReporter(table, (e) => errors.push(e)), namespace: 'x:' });
  assert.equal((await counters.incr('k', MINUTE, 10)).current, 1);
  assert.equal((await counters.incr('k', MINUTE, 10)).current, 2);
  assert.equal(statements.length, 1, 'the second request did not try again');
  assert.deepEqual(statements[0], [{ key: 'x:k', delta: 1, windowMs: MINUTE }]);
  assert.equal(errors.length, 1);
});
