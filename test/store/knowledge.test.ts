// The store's knowledge port (store/knowledge.ts), one contract on SQLite and PostgreSQL: limits
// hold under concurrent adds, a source's passages are swapped in whole under its generation,
// search is per bot, ranked best first, and takes any term as data.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import type { SourceRecord } from '../../src/knowledge/model.js';
import { searchByWords } from '../../src/knowledge/word-search.js';
import { databaseKinds } from '../support/databases.js';
import { seedBot, storePerTest } from './store-fixtures.js';

const source = (botId: string, over: Partial<SourceRecord> = {}): SourceRecord => ({
  id: crypto.randomUUID(),
  botId,
  name: 'Doc',
  kind: 'text',
  url: null,
  status: 'indexing',
  error: null,
  chunks: 0,
  bytes: 10,
  generation: 0,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});
const LIMITS = { sources: 3, bytes: 100 };

for (const kind of databaseKinds()) {
  describe(`store knowledge (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('concurrent adds never take a bot over its source count or its bytes', async () => {
      const { bot } = await seedBot(ctx.store);
      const adds = Array.from({ length: 8 }, () => ctx.store.transaction((tx) => tx.knowledge.insert(source(bot.id), LIMITS)));
      const hits = await Promise.all(adds);
      assert.equal(hits.filter((h) => h === null).length, 3);
      assert.deepEqual(
        hits.filter((h) => h !== null),
        Array(5).fill('sources'),
      );
      assert.equal((await ctx.store.knowledge.list(bot.id)).length, 3);
      const { bot: other } = await seedBot(ctx.store);
      const big = await Promise.all([60, 60, 30].map((bytes) => ctx.store.transaction((tx) => tx.knowledge.insert(source(other.id, { bytes }), LIMITS))));
      assert.equal(big.filter((h) => h === 'bytes').length, 1);
      assert.ok((await ctx.store.knowledge.list(other.id)).reduce((sum, s) => sum + s.bytes, 0) <= 100);
    });

    test('passages are swapped in whole, only for the current generation; a restart removes them at once', async () => {
      const { bot } = await seedBot(ctx.store);
      const s = source(bot.id);
      await ctx.store.transaction((tx) => tx.knowledge.insert(s, LIMITS));
      assert.deepEqual((await ctx.store.knowledge.candidates(bot.id, ['harbour'], 'en', 5)).passages, [], 'indexing: nothing to find');
      assert.equal(await ctx.store.transaction((tx) => tx.knowledge.swapIn(s.id, 0, [{ heading: 'Port', text: 'The harbour opens at dawn.' }], 'en', 2)), true);
      assert.equal((await ctx.store.knowledge.candidates(bot.id, ['harbour'], 'en', 5)).passages[0].heading, 'Port');
      const restarted = await ctx.store.transaction((tx) => tx.knowledge.restart(bot.id, s.id, { name: 'Doc', kind: 'text', url: null, bytes: 10, now: 3 }, LIMITS));
      assert.deepEqual(restarted, { hit: null, generation: 1 });
      assert.deepEqual((await ctx.store.knowledge.candidates(bot.id, ['harbour'], 'en', 5)).passages, []);
      // an indexing job of the older content arrives late: refused
      assert.equal(await ctx.store.transaction((tx) => tx.knowledge.swapIn(s.id, 0, [{ heading: '', text: 'The harbour is old news.' }], 'en', 4)), false);
      assert.deepEqual((await ctx.store.knowledge.candidates(bot.id, ['harbour'], 'en', 5)).passages, []);
      assert.equal((await ctx.store.knowledge.get(bot.id, s.id))?.status, 'indexing');
    });

    test('search is per bot, best first, and any term is data', async () => {
      const { bot } = await seedBot(ctx.store);
      const { bot: other } = await seedBot(ctx.store);
      for (const [owner, passages] of [
        [
          bot.id,
          [
            { heading: 'Dogs', text: 'Dogs travel in the cabin. Dogs need a carrier. Dogs pay 40 euros.' },
            { heading: 'Cats', text: 'Cats also travel, dogs rarely.' },
          ],
        ],
        [other.id, [{ heading: 'Dogs', text: 'Dogs of the other bot.' }]],
      ] as const) {
        const s = source(owner);
        await ctx.store.transaction(async (tx) => {
          await tx.knowledge.insert(s, LIMITS);
          await tx.knowledge.swapIn(s.id, 0, [...passages], 'en', 2);
        });
      }
      const candidates = await ctx.store.knowledge.candidates(bot.id, ['dogs', 'carrier'], 'en', 5);
      assert.deepEqual(candidates.passages.map((f) => f.heading).sort(), ['Cats', 'Dogs'], "the bot's own passages only");
      assert.deepEqual(
        [...candidates.frequencies],
        [
          ['dogs', 2],
          ['carrier', 1],
        ],
      );
      assert.equal(candidates.passageCount, 2);
      const found = await searchByWords((...a) => ctx.store.knowledge.candidates(...a), bot.id, ['dogs', 'carrier'], 'en', 5);
      assert.deepEqual(
        found.map((f) => f.heading),
        ['Dogs', 'Cats'],
      );
      assert.ok(found[0].score > found[1].score);
      for (const term of ['"', '*', 'NEAR(', 'OR', ':*', "'", '\\', '{heading text}', 'a"b', '-']) {
        assert.ok(Array.isArray((await ctx.store.knowledge.candidates(bot.id, [term], 'en', 5)).passages), term);
      }
      assert.deepEqual((await ctx.store.knowledge.candidates(bot.id, [], 'en', 5)).passages, []);
      assert.equal(await ctx.store.knowledge.remove(other.id, found[0].sourceId), false, "another bot's source is not removed");
    });
  });
}
