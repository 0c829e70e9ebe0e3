// The webhook outbox: claims, order per conversation, and a retry that arrives mid-attempt.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { conversationRecord, seedBot, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store outbox (${kind})`, () => {
    const ctx = storePerTest(kind);

    const setup = async () => {
      const { bot } = await seedBot(ctx.store);
      const conversationId = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'u1')))!;
      const row = (deliveryId: string) => ({ deliveryId, botId: bot.id, conversationId, userId: 'u1', event: 'message', body: `{"d":"${deliveryId}"}`, createdAt: 1000 });
      return { bot, row };
    };

    test('only the oldest pending row of a conversation can be claimed, and only once until its claim ends', async () => {
      const { row } = await setup();
      await ctx.store.outbox.insert(row('d1'));
      await ctx.store.outbox.insert(row('d2'));
      const first = await ctx.store.outbox.claimDue(2000, 62_000, 10);
      assert.deepEqual(
        first.map((r) => [r.deliveryId, r.claimedUntil]),
        [['d1', 62_000]],
      );
      assert.deepEqual(await ctx.store.outbox.claimDue(2001, 62_001, 10), []);
      // a claim that outlived its node expires: the row is claimable again
      assert.deepEqual(
        (await ctx.store.outbox.claimDue(62_000, 122_000, 10)).map((r) => r.deliveryId),
        ['d1'],
      );
    });

    test('a retry requested while an attempt is under way is not undone by that attempt', async () => {
      const { bot, row } = await setup();
      await ctx.store.outbox.insert(row('d1'));
      const [claimed] = await ctx.store.outbox.claimDue(2000, 62_000, 10);
      await ctx.store.outbox.requeue(claimed.id, 2500);
      await ctx.store.outbox.recordAttempt(claimed.id, claimed.claimedUntil, { status: 'delivered', statusCode: 200, error: null, nextAttemptAt: 3000, at: 3000 });
      const [after] = await ctx.store.outbox.byBot(bot.id, 10);
      assert.deepEqual([after.status, after.attempts, after.lastStatusCode, after.nextAttemptAt, after.claimedUntil], ['pending', 1, 200, 2500, 0]);
      assert.deepEqual(
        (await ctx.store.outbox.claimDue(3000, 63_000, 10)).map((r) => r.deliveryId),
        ['d1'],
      );
    });

    test('an attempt under its own claim records its outcome and releases the claim', async () => {
      const { bot, row } = await setup();
      await ctx.store.outbox.insert(row('d1'));
      const [claimed] = await ctx.store.outbox.claimDue(2000, 62_000, 10);
      await ctx.store.outbox.recordAttempt(claimed.id, claimed.claimedUntil, { status: 'pending', statusCode: 500, error: 'HTTP 500', nextAttemptAt: 3000, at: 2100 });
      const [after] = await ctx.store.outbox.byBot(bot.id, 10);
      assert.deepEqual([after.status, after.attempts, after.lastStatusCode, after.lastError, after.nextAttemptAt, after.claimedUntil], ['pending', 1, 500, 'HTTP 500', 3000, 0]);
    });

    test('pruneFailed deletes failed rows whose last attempt is older than the cut, nothing else', async () => {
      const { bot, row } = await setup();
      const { outbox } = ctx.store;
      for (const d of ['old-failed', 'new-failed', 'old-delivered', 'pending']) await outbox.insert(row(d));
      const settle = async (deliveryId: string, status: 'failed' | 'delivered', at: number) => {
        const [claimed] = await outbox.claimDue(at, at + 60_000, 1);
        assert.equal(claimed.deliveryId, deliveryId);
        await outbox.recordAttempt(claimed.id, claimed.claimedUntil, { status, statusCode: 500, error: null, nextAttemptAt: at, at });
      };
      // one conversation: rows are claimed oldest first, each after the previous one is settled
      await settle('old-failed', 'failed', 2000);
      await settle('new-failed', 'failed', 9000);
      await settle('old-delivered', 'delivered', 2000);
      assert.equal(await outbox.pruneFailed(5000, 10), 1);
      assert.deepEqual((await outbox.byBot(bot.id, 10)).map((r) => r.deliveryId).sort(), ['new-failed', 'old-delivered', 'pending']);
    });
    test("pruneDeliveredBeyond deletes a bot's delivered rows older than its newest `keep`, never a pending or failed one, nor another bot's", async () => {
      const { bot, row } = await setup();
      const other = await setup();
      const { outbox } = ctx.store;
      for (const d of ['d1', 'd2', 'd3', 'd4', 'd5']) await outbox.insert(row(d));
      await outbox.insert(other.row('o1'));
      const settle = async (deliveryId: string, status: 'failed' | 'delivered', at: number) => {
        const claimed = (await outbox.claimDue(at, at + 60_000, 10)).find((r) => r.deliveryId === deliveryId)!;
        await outbox.recordAttempt(claimed.id, claimed.claimedUntil, { status, statusCode: 200, error: null, nextAttemptAt: at, at });
      };
      // each settle after the claims of the one before have run out (60 s)
      await settle('o1', 'delivered', 200_000);
      await settle('d1', 'delivered', 300_000);
      await settle('d2', 'delivered', 400_000);
      await settle('d3', 'failed', 500_000);
      await settle('d4', 'delivered', 600_000);
      assert.deepEqual(await outbox.botsDeliveredSince(550_000), [bot.id]);
      assert.deepEqual((await outbox.botsDeliveredSince(0)).sort(), [bot.id, other.bot.id].sort());
      // the newest row (d5, pending) is kept in full; of the older ones only the delivered go, in batches
      assert.equal(await outbox.pruneDeliveredBeyond(bot.id, 1, 2), 2);
      assert.equal(await outbox.pruneDeliveredBeyond(bot.id, 1, 2), 1);
      assert.equal(await outbox.pruneDeliveredBeyond(bot.id, 1, 2), 0);
      assert.deepEqual(
        (await outbox.byBot(bot.id, 10)).map((r) => [r.deliveryId, r.status]),
        [
          ['d5', 'pending'],
          ['d3', 'failed'],
        ],
      );
      assert.deepEqual(
        (await outbox.byBot(other.bot.id, 10)).map((r) => r.deliveryId),
        ['o1'],
      );
      assert.equal(await outbox.pruneDeliveredBeyond(other.bot.id, 1, 10), 0);
    });
  });
}
