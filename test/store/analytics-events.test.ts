// Analytics events are bounded per conversation (docs/limits.md): the maintenance pass keeps a
// conversation's newest events only, looking only at conversations with an event since its last
// pass. Each toggle of a conversation's state through the API adds one, so without the cap a
// client could grow the table at its rate limit's pace for as long as it liked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Retention } from '../../src/conversations/retention.js';
import { clockFrom } from '../../src/shared/clock.js';
import { databaseKinds } from '../support/databases.js';
import { conversationRecord, seedBot, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store analytics events cap (${kind})`, () => {
    const ctx = storePerTest(kind);

    test("a conversation keeps its newest events; another's and the ones of before the first pass are left alone", async () => {
      const { bot } = await seedBot(ctx.store);
      const a = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'a')))!;
      const b = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'b')))!;
      const c = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'c')))!;
      const rate = (conversationId: number, n: number, at: number) => Promise.all(Array.from({ length: n }, () => ctx.store.analytics.addCsat({ conversationId, botId: bot.id, rating: 4, at })));
      // how many events a conversation holds, through the store's own question: over n?
      const eventsOf = async (conversationId: number) => {
        let n = 0;
        while ((await ctx.store.analytics.conversationsOverEvents(0, n)).includes(conversationId)) n++;
        return n;
      };
      await rate(c, 6, 1000); // before the first pass: not looked at
      let now = 0;
      const retention = new Retention({ store: ctx.store, clock: clockFrom(() => now), eventsPerConversation: 3 });
      await retention.run();
      await rate(a, 5, 2000);
      await rate(b, 2, 2000);
      now += 61_000;
      await retention.run();
      assert.equal(await eventsOf(a), 3);
      assert.equal(await eventsOf(b), 2);
      assert.equal(await eventsOf(c), 6);
      // c's next event brings it under the cap too
      await rate(c, 1, 3000);
      now += 61_000;
      await retention.run();
      assert.equal(await eventsOf(c), 3);
    });
  });
}
