// The store's vector port (store/knowledge-vectors.ts), one contract on SQLite and PostgreSQL:
// passages of ready sources lacking a vector of a model, one vector per passage (another model's
// replaces it), the stamp that tells a node its copy is stale, per-bot reads, and vectors gone with
// their passages when a source is replaced or deleted.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import { vectorBytes, vectorFromBytes } from '../../src/integrations/embeddings-client.js';
import type { SourceRecord } from '../../src/knowledge/model.js';
import { databaseKinds } from '../support/databases.js';
import { seedBot, storePerTest } from './store-fixtures.js';

const LIMITS = { sources: 10, bytes: 10_000 };
const vec = (...xs: number[]) => vectorBytes(Float32Array.from(xs));

for (const kind of databaseKinds()) {
  describe(`store knowledge vectors (${kind})`, () => {
    const ctx = storePerTest(kind);

    async function sourceWith(botId: string, texts: string[]): Promise<string> {
      const s: SourceRecord = {
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
      };
      await ctx.store.transaction(async (tx) => {
        await tx.knowledge.insert(s, LIMITS);
        await tx.knowledge.swapIn(
          s.id,
          0,
          texts.map((text) => ({ heading: 'H', text })),
          'en',
          2,
        );
      });
      return s.id;
    }

    test('missing, put, stamp and read back: one vector per passage, per model, per bot', async () => {
      const { bot } = await seedBot(ctx.store);
      const { bot: other } = await seedBot(ctx.store);
      await sourceWith(bot.id, ['one', 'two', 'three']);
      await sourceWith(other.id, ['elsewhere']);
      const missing = await ctx.store.vectors.missing(bot.id, 'm1', 2);
      assert.deepEqual(
        missing.map((p) => p.text),
        ['one', 'two'],
      );
      await ctx.store.transaction((tx) =>
        tx.vectors.put(
          bot.id,
          'm1',
          missing.map((p, i) => ({ chunkId: p.chunkId, vector: vec(i, 1, 0.5) })),
        ),
      );
      assert.deepEqual(
        (await ctx.store.vectors.missing(bot.id, 'm1', 10)).map((p) => p.text),
        ['three'],
      );
      assert.equal((await ctx.store.vectors.missing(bot.id, 'm2', 10)).length, 3, 'another model has none');
      assert.deepEqual(
        (await ctx.store.vectors.missing(bot.id, 'm2', 10, missing[0].chunkId)).map((p) => p.text),
        ['two', 'three'],
        'walked on from an id',
      );
      const stored = await ctx.store.vectors.vectors(bot.id, 'm1');
      assert.deepEqual(
        stored.map((s) => s.chunkId),
        missing.map((p) => p.chunkId),
      );
      assert.deepEqual([...vectorFromBytes(stored[1].vector)], [1, 1, 0.5]);
      assert.deepEqual(await ctx.store.vectors.vectors(other.id, 'm1'), []);
      const stamp = await ctx.store.vectors.stamp(bot.id, 'm1');
      assert.deepEqual(stamp, { count: 2, top: missing[1].chunkId, sum: missing[0].chunkId + missing[1].chunkId });
      // a vector of another model replaces the passage's vector
      await ctx.store.transaction((tx) => tx.vectors.put(bot.id, 'm2', [{ chunkId: missing[0].chunkId, vector: vec(9, 9) }]));
      assert.equal((await ctx.store.vectors.stamp(bot.id, 'm1')).count, 1);
      assert.deepEqual([...(await ctx.store.vectors.embeddedPerSource(bot.id, 'm2')).values()], [1]);
      // another bot's passage id is not written under this bot
      const foreign = (await ctx.store.vectors.missing(other.id, 'm1', 1))[0];
      await ctx.store.transaction((tx) => tx.vectors.put(bot.id, 'm1', [{ chunkId: foreign.chunkId, vector: vec(1) }]));
      assert.deepEqual(await ctx.store.vectors.vectors(other.id, 'm1'), []);
      assert.deepEqual(await ctx.store.vectors.passagesByIds(bot.id, [foreign.chunkId]), []);
      assert.deepEqual(
        (await ctx.store.vectors.passagesByIds(bot.id, [missing[1].chunkId])).map((p) => p.text),
        ['two'],
      );
    });

    test('replacing or deleting a source takes its vectors with its passages', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = await sourceWith(bot.id, ['alpha', 'beta']);
      const passages = await ctx.store.vectors.missing(bot.id, 'm1', 10);
      await ctx.store.transaction((tx) =>
        tx.vectors.put(
          bot.id,
          'm1',
          passages.map((p) => ({ chunkId: p.chunkId, vector: vec(1, 0) })),
        ),
      );
      assert.equal((await ctx.store.vectors.stamp(bot.id, 'm1')).count, 2);
      await ctx.store.transaction((tx) => tx.knowledge.restart(bot.id, id, { name: 'Doc', kind: 'text', url: null, bytes: 10, now: 3 }, LIMITS));
      assert.equal((await ctx.store.vectors.stamp(bot.id, 'm1')).count, 0);
      const again = await sourceWith(bot.id, ['gamma']);
      const [p] = await ctx.store.vectors.missing(bot.id, 'm1', 10);
      await ctx.store.transaction((tx) => tx.vectors.put(bot.id, 'm1', [{ chunkId: p.chunkId, vector: vec(0, 1) }]));
      assert.equal(await ctx.store.knowledge.remove(bot.id, again), true);
      assert.deepEqual(await ctx.store.vectors.stamp(bot.id, 'm1'), { count: 0, top: 0, sum: 0 });
    });

    test("a version's intent vectors are stored once per model and go with the version's bot", async () => {
      const { bot } = await seedBot(ctx.store);
      const versionId = await ctx.store.bots.insertVersion(bot.id, 1, { behaviours: [] } as any, 1, null);
      assert.equal(await ctx.store.vectors.intentVectors(versionId, 'm1'), null);
      await ctx.store.vectors.putIntentVectors(versionId, 'm1', ['a', ''], Buffer.concat([vec(1, 0), vec(0, 1)]), 5);
      await ctx.store.vectors.putIntentVectors(versionId, 'm1', ['x'], vec(3, 3), 6);
      const stored = (await ctx.store.vectors.intentVectors(versionId, 'm1'))!;
      assert.deepEqual(stored.labels, ['a', '']);
      assert.deepEqual([...vectorFromBytes(stored.vectors)], [1, 0, 0, 1]);
      assert.equal(await ctx.store.vectors.intentVectors(versionId, 'm2'), null);
      await ctx.store.bots.remove(bot.id);
      assert.equal(await ctx.store.vectors.intentVectors(versionId, 'm1'), null);
    });
  });
}
