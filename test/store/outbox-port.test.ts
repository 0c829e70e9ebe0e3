// The webhook outbox's storage port (src/webhooks/port.ts): one contract, three implementations —
// in memory (test/support/memory-outbox.ts, for the delivery rules without a database), SQLite and
// PostgreSQL. What the dispatcher relies on: one row at a time per conversation and target, a
// paused endpoint holding only its webhook rows, an attempt's outcome applied only under its
// claim, and a broadcast's row never attempted twice.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { NewOutboxRow } from '../../src/webhooks/model.js';
import type { OutboxStorage } from '../../src/webhooks/port.js';
import { databaseKinds } from '../support/databases.js';
import { MemoryOutbox } from '../support/memory-outbox.js';
import { conversationRecord, openMigratedTestStore, seedBot } from './store-fixtures.js';

interface Subject {
  storage: OutboxStorage;
  bot: string;
  conversation(userId: string): Promise<number>;
  /** a row as a turn writes it */
  add(row: NewOutboxRow): Promise<void>;
  close(): Promise<void>;
}

async function open(kind: 'memory' | 'sqlite' | 'postgres'): Promise<Subject> {
  if (kind === 'memory') {
    const memory = new MemoryOutbox();
    let conversations = 0;
    return { storage: memory, bot: 'bot-1', conversation: async () => ++conversations, add: async (row) => memory.add(row), close: async () => undefined };
  }
  const { store, close } = await openMigratedTestStore(kind);
  const { bot } = await seedBot(store);
  return {
    storage: store,
    bot: bot.id,
    conversation: async (userId) => (await store.transaction((tx) => tx.conversations.insert(conversationRecord(bot.id, userId))))!,
    add: (row) => store.transaction((tx) => tx.outbox.insert(row)),
    close,
  };
}

for (const kind of ['memory', ...databaseKinds()] as const) {
  describe(`outbox storage port (${kind})`, () => {
    let s: Subject;
    beforeEach(async () => (s = await open(kind)));
    afterEach(() => s.close());

    const row = (deliveryId: string, conversationId: number, over: Partial<NewOutboxRow> = {}): NewOutboxRow => ({
      deliveryId,
      botId: s.bot,
      conversationId,
      userId: 'u',
      event: 'message',
      body: `{"id":"${deliveryId}"}`,
      createdAt: 100,
      ...over,
    });
    const claim = async (now: number, until: number) => (await s.storage.outbox.claimDue(now, until, 10)).map((r) => r.deliveryId);
    const byDelivery = async (id: string) => (await s.storage.outbox.byDeliveryId(s.bot, id))!;

    test('one row at a time per conversation and target, in order; the next is due once the first is decided', async () => {
      const [a, b] = [await s.conversation('a'), await s.conversation('b')];
      for (const r of [row('a1', a), row('a2', a), row('a3', a, { target: 'channel' }), row('b1', b)]) await s.add(r);
      assert.deepEqual(await claim(100, 200), ['a1', 'a3', 'b1']);
      assert.deepEqual(await claim(150, 250), [], 'a2 waits for a1; the others are claimed');
      const a1 = await byDelivery('a1');
      await s.storage.outbox.recordAttempt(a1.id, 200, { status: 'delivered', statusCode: 200, error: null, nextAttemptAt: 0, at: 160 });
      assert.deepEqual(await claim(170, 300), ['a2']);
      assert.deepEqual(
        (await s.storage.outbox.byBot(s.bot, 10)).map((r) => [r.deliveryId, r.status, r.attempts, r.deliveredAt]),
        [
          ['b1', 'pending', 0, null],
          ['a2', 'pending', 0, null],
          ['a1', 'delivered', 1, 160],
        ],
      );
      assert.equal(await s.storage.outbox.byDeliveryId(s.bot, 'a3'), null, "a platform's row is not a webhook delivery");
    });

    test("a paused endpoint holds its webhook rows, not a platform's; a typing pause holds the next row", async () => {
      const a = await s.conversation('a');
      for (const r of [row('w1', a), row('c1', a, { target: 'channel' }), row('c2', a, { target: 'channel' })]) await s.add(r);
      assert.deepEqual(await s.storage.outbox.endpoint(s.bot), { consecutiveFailures: 0, pausedUntil: 0 });
      await s.storage.transaction((tx) => tx.outbox.setEndpoint(s.bot, 3, 1000));
      assert.deepEqual(await s.storage.outbox.endpoint(s.bot), { consecutiveFailures: 3, pausedUntil: 1000 });
      const [c1] = await s.storage.outbox.claimDue(100, 200, 10);
      assert.equal(c1.deliveryId, 'c1');
      await s.storage.outbox.holdNext(c1, 700);
      await s.storage.outbox.recordAttempt(c1.id, 200, { status: 'delivered', statusCode: null, error: null, nextAttemptAt: 0, at: 150 });
      assert.deepEqual(await claim(600, 800), [], 'c2 held until 700, w1 paused');
      const [c2] = await s.storage.outbox.claimDue(700, 900, 10);
      assert.equal(c2.deliveryId, 'c2');
      await s.storage.outbox.recordAttempt(c2.id, 900, { status: 'delivered', statusCode: null, error: null, nextAttemptAt: 0, at: 750 });
      assert.deepEqual(await claim(1000, 1100), ['w1'], 'the pause is over');
    });

    test('an attempt counts, but its outcome applies only under its claim: a retry asked meanwhile wins', async () => {
      await s.add(row('r', await s.conversation('a')));
      await claim(100, 200);
      const r = await byDelivery('r');
      await s.storage.outbox.requeue(r.id, 150);
      await s.storage.outbox.recordAttempt(r.id, 200, { status: 'failed', statusCode: 500, error: 'down', nextAttemptAt: 999, at: 160 });
      const after = await byDelivery('r');
      assert.deepEqual([after.status, after.attempts, after.lastStatusCode, after.lastError, after.nextAttemptAt, after.claimedUntil], ['pending', 1, 500, 'down', 150, 0]);
      assert.deepEqual(await claim(160, 300), ['r']);
      await s.storage.outbox.recordAttempt(r.id, 300, { status: 'failed', statusCode: 410, error: 'gone', nextAttemptAt: 5000, at: 170 });
      const failed = await byDelivery('r');
      assert.deepEqual([failed.status, failed.attempts, failed.lastStatusCode, failed.nextAttemptAt, failed.claimedUntil], ['failed', 2, 410, 5000, 0]);
      assert.deepEqual(await claim(6000, 7000), [], 'a failed row is not attempted again');
    });

    test("a broadcast's row whose claim ran out is never attempted again but failed as interrupted; a rollback keeps the endpoint", async () => {
      const a = await s.conversation('a');
      const b = await s.conversation('b');
      await s.add(row('br', a, { broadcast: 'cast-1:1', target: 'channel' }));
      await s.add(row('plain', b));
      assert.deepEqual(await claim(100, 200), ['br', 'plain']);
      assert.equal(await s.storage.outbox.anyInterrupted(150), false);
      assert.equal(await s.storage.outbox.anyInterrupted(200), true);
      assert.deepEqual(await claim(250, 400), ['plain'], 'the broadcast row is not claimed again');
      assert.deepEqual(await s.storage.outbox.interruptBroadcasts(250), [{ broadcast: 'cast-1:1', conversationId: a }]);
      assert.equal(await s.storage.outbox.anyInterrupted(500), false);
      assert.deepEqual(await s.storage.outbox.interruptBroadcasts(500), []);
      await assert.rejects(
        s.storage.transaction(async (tx) => {
          await tx.outbox.setEndpoint(s.bot, 5, 9999);
          await tx.broadcasts.noteDelivery('cast-1:1', a, false, 'blocked');
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.deepEqual(await s.storage.outbox.endpoint(s.bot), { consecutiveFailures: 0, pausedUntil: 0 });
    });
  });
}
