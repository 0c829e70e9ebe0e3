// The console's message search (migrations 019 and 022) through the store: on SQLite messages are
// indexed in batches after the turns (Store.indexNewMessages), never in the turn's transaction;
// PostgreSQL's index is kept as rows are written. Either way a search after indexNewMessages finds
// every message stored before it, once, and never a deleted one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { conversationRecord, part, seedBot, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store message search (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('messages are found after indexNewMessages, in batches, each once; deleted ones never', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      const append = (text: string) => ctx.store.conversations.appendMessages(id, [{ direction: 'USER', parts: [part(text)], pending: false }], 1000);
      await append('zeppelin first');
      await append('zeppelin second');
      const found = async () => (await ctx.store.messageSearch.find([bot.id], ['zeppelin'], 10)).map((h) => (h.parts[0] as { Text: string }).Text);

      if (kind === 'sqlite') {
        // the turns' writes index nothing themselves
        assert.deepEqual(await found(), []);
        assert.equal(await ctx.store.indexNewMessages(1), 1);
        assert.deepEqual(await found(), ['zeppelin first']);
        assert.equal(await ctx.store.indexNewMessages(10), 1);
      } else {
        assert.equal(await ctx.store.indexNewMessages(10), 0);
      }
      assert.deepEqual(await found(), ['zeppelin second', 'zeppelin first']);
      assert.equal(await ctx.store.indexNewMessages(10), 0);

      // History trimmed to its newest message: 'third', deleted before it was indexed, and the
      // indexed ones are never found again.
      await append('zeppelin third');
      await append('zeppelin fourth');
      await ctx.store.conversations.trimHistory(id, 1, 1 << 20);
      assert.equal(await ctx.store.indexNewMessages(10), kind === 'sqlite' ? 1 : 0);
      assert.deepEqual(await found(), ['zeppelin fourth']);
    });
  });
}
