// The knowledge storage port (src/knowledge/port.ts): one contract, three implementations — in
// memory (test/support/memory-knowledge.ts, for knowledge's rules without a database), SQLite and
// PostgreSQL. What knowledge relies on: a bot's limits, a source's content swapped in only under
// its current generation, searches over ready sources of the bot only, FAQ pairs and indexing leases.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { SourceRecord } from '../../src/knowledge/model.js';
import type { KnowledgeStorage } from '../../src/knowledge/port.js';
import { databaseKinds } from '../support/databases.js';
import { MemoryKnowledge } from '../support/memory-knowledge.js';
import { openMigratedTestStore, seedBot } from './store-fixtures.js';

interface Subject {
  storage: KnowledgeStorage;
  bots: [string, string];
  close(): Promise<void>;
}

async function open(kind: 'memory' | 'sqlite' | 'postgres'): Promise<Subject> {
  if (kind === 'memory') return { storage: new MemoryKnowledge(), bots: ['bot-1', 'bot-2'], close: async () => undefined };
  const { store, close } = await openMigratedTestStore(kind);
  return { storage: store, bots: [(await seedBot(store)).bot.id, (await seedBot(store)).bot.id], close };
}

const LIMITS = { sources: 2, bytes: 100 };
const source = (id: string, botId: string, bytes = 10): SourceRecord => ({
  id,
  botId,
  name: `Doc ${id}`,
  kind: 'text',
  url: null,
  status: 'indexing',
  error: null,
  chunks: 0,
  bytes,
  generation: 0,
  createdAt: 1,
  updatedAt: 1,
});
const change = (bytes: number, now: number) => ({ name: 'Doc v2', kind: 'text' as const, url: null, bytes, now });

for (const kind of ['memory', ...databaseKinds()] as const) {
  describe(`knowledge storage port (${kind})`, () => {
    let s: Subject;
    beforeEach(async () => (s = await open(kind)));
    afterEach(() => s.close());

    const add = (id: string, botId = s.bots[0], bytes = 10) => s.storage.transaction((tx) => tx.knowledge.insert(source(id, botId, bytes), LIMITS));
    const fill = (id: string, generation: number, texts: string[], now = 2) =>
      s.storage.transaction((tx) =>
        tx.knowledge.swapIn(
          id,
          generation,
          texts.map((text, i) => ({ heading: `H${i}`, text })),
          'en',
          now,
        ),
      );
    const page = async (id: string, generation: number) => (await s.storage.knowledge.passagePage(id, generation, -1, 10)).map((p) => [p.position, p.heading, p.text]);

    test("a bot's limits: a third source and a byte too many are refused; a replacement counts its new size only", async () => {
      assert.equal(await add('a'), null);
      assert.equal(await add('b', s.bots[0], 90), null);
      assert.equal(await add('c'), 'sources');
      assert.equal(await add('c', s.bots[1], 101), 'bytes');
      assert.deepEqual(await s.storage.knowledge.usage(s.bots[0], 'a'), { sources: 1, bytes: 90 });
      assert.deepEqual(await s.storage.transaction((tx) => tx.knowledge.restart(s.bots[0], 'a', change(11, 3), LIMITS)), { hit: 'bytes', generation: 0 });
      assert.deepEqual(await s.storage.transaction((tx) => tx.knowledge.restart(s.bots[0], 'a', change(10, 3), LIMITS)), { hit: null, generation: 1 });
      assert.equal(await s.storage.transaction((tx) => tx.knowledge.restart(s.bots[1], 'a', change(1, 3), LIMITS)), null, "another bot's source");
      assert.deepEqual(
        (await s.storage.knowledge.list(s.bots[0])).map((x) => [x.id, x.name, x.generation, x.updatedAt]),
        [
          ['a', 'Doc v2', 1, 3],
          ['b', 'Doc b', 0, 1],
        ],
      );
    });

    test('content is swapped in only under the current generation; a restart empties the source at once', async () => {
      await add('a');
      assert.equal(await fill('a', 0, ['first', 'second']), true);
      assert.deepEqual(await page('a', 0), [
        [0, 'H0', 'first'],
        [1, 'H1', 'second'],
      ]);
      assert.deepEqual((await s.storage.knowledge.get(s.bots[0], 'a'))?.status, 'ready');
      await s.storage.transaction((tx) => tx.knowledge.restart(s.bots[0], 'a', change(10, 3), LIMITS));
      assert.deepEqual(await page('a', 0), [], 'the old generation reads nothing');
      assert.deepEqual(await page('a', 1), []);
      assert.equal(await fill('a', 0, ['late']), false, 'an indexing of the older content arrives late');
      await s.storage.knowledge.fail('a', 0, 'stale failure', 4);
      assert.deepEqual(await s.storage.knowledge.get(s.bots[0], 'a').then((x) => [x?.status, x?.error, x?.chunks]), ['indexing', null, 0]);
      await s.storage.knowledge.fail('a', 1, 'too large', 5);
      assert.deepEqual(await s.storage.knowledge.get(s.bots[0], 'a').then((x) => [x?.status, x?.error, x?.updatedAt]), ['failed', 'too large', 5]);
      assert.equal(await s.storage.knowledge.get(s.bots[1], 'a'), null, "another bot's source is not found");
    });

    test("candidates come from the bot's ready sources only, with each term's frequency and the passage count", async () => {
      await add('a');
      await add('b');
      await add('c', s.bots[1]);
      await fill('a', 0, ['harbour opens early', 'market square', 'harbour and market']);
      await fill('c', 0, ['harbour elsewhere']);
      await s.storage.transaction((tx) => tx.knowledge.insert(source('d', s.bots[1]), LIMITS));
      const found = await s.storage.knowledge.candidates(s.bots[0], ['harbour', 'museum'], 'en', 10);
      assert.deepEqual(found.passages.map((p) => [p.sourceId, p.text]).sort(), [
        ['a', 'harbour and market'],
        ['a', 'harbour opens early'],
      ]);
      assert.deepEqual(
        [...found.frequencies],
        [
          ['harbour', 2],
          ['museum', 0],
        ],
      );
      assert.equal(found.passageCount, 3);
      assert.equal((await s.storage.knowledge.candidates(s.bots[0], ['harbour', 'market'], 'en', 1)).passages.length, 1, 'at most cap');
      assert.deepEqual(await s.storage.knowledge.candidates(s.bots[0], [], 'en', 10), { passages: [], frequencies: new Map(), passageCount: 0 });
      assert.equal(await s.storage.knowledge.passageCount(s.bots[0], 'a'), 0);
      assert.equal(await s.storage.knowledge.passageCount(s.bots[0], 'b'), 3);
    });

    test("FAQ pairs are paged in order and go with their source; another bot's source is not removed", async () => {
      await add('a');
      const pairs = [
        { Question: 'Q1', Answer: 'A1' },
        { Question: 'Q2', Answer: 'A2' },
        { Question: 'Q3', Answer: 'A3' },
      ];
      await s.storage.transaction((tx) => tx.faqPairs.replace('a', pairs));
      assert.deepEqual(await s.storage.faqPairs.page('a', 0, 5), [
        { Question: 'Q2', Answer: 'A2', position: 1 },
        { Question: 'Q3', Answer: 'A3', position: 2 },
      ]);
      await s.storage.transaction((tx) => tx.faqPairs.replace('a', pairs.slice(2)));
      assert.deepEqual(await s.storage.faqPairs.page('a', -1, 5), [{ Question: 'Q3', Answer: 'A3', position: 0 }]);
      assert.equal(await s.storage.knowledge.remove(s.bots[1], 'a'), false);
      assert.equal(await s.storage.knowledge.remove(s.bots[0], 'a'), true);
      assert.deepEqual(await s.storage.faqPairs.page('a', -1, 5), []);
      assert.deepEqual(await s.storage.knowledge.list(s.bots[0]), []);
    });

    test('an indexing nobody holds is failed once; a claimed one and a recent one are left', async () => {
      await add('held');
      await add('recent', s.bots[0], 10);
      await add('abandoned', s.bots[1]);
      await s.storage.knowledgeLeases.claim('held', 0, 100);
      await s.storage.transaction((tx) => tx.knowledge.restart(s.bots[0], 'recent', change(10, 20), LIMITS));
      assert.equal(await s.storage.knowledgeLeases.failAbandoned(50, 50, 10, 'the node indexing it stopped'), 1);
      assert.deepEqual(await s.storage.knowledge.get(s.bots[1], 'abandoned').then((x) => [x?.status, x?.error, x?.updatedAt]), ['failed', 'the node indexing it stopped', 50]);
      assert.equal((await s.storage.knowledge.get(s.bots[0], 'held'))?.status, 'indexing');
      assert.equal((await s.storage.knowledge.get(s.bots[0], 'recent'))?.status, 'indexing');
      assert.equal(await s.storage.knowledgeLeases.failAbandoned(50, 50, 10, 'again'), 0);
    });

    test('vectors: what is missing, written once per passage, counted per source; a throw in a transaction leaves nothing', async () => {
      await add('a');
      await fill('a', 0, ['one', 'two']);
      const [first, second] = (await s.storage.knowledge.passagePage('a', 0, -1, 10)).map((p) => p.chunkId);
      assert.deepEqual(
        (await s.storage.vectors.missing(s.bots[0], 'm', 10)).map((p) => p.text),
        ['one', 'two'],
      );
      await s.storage.transaction((tx) => tx.vectors.put(s.bots[0], 'm', [{ chunkId: first, vector: Buffer.from([1, 2, 3, 4]) }]));
      await s.storage.transaction((tx) => tx.vectors.put(s.bots[1], 'm', [{ chunkId: second, vector: Buffer.from([9, 9, 9, 9]) }]));
      assert.deepEqual(
        (await s.storage.vectors.missing(s.bots[0], 'm', 10)).map((p) => p.chunkId),
        [second],
        "another bot's vector is not written",
      );
      assert.deepEqual(await s.storage.vectors.stamp(s.bots[0], 'm'), { count: 1, top: first, sum: first });
      assert.deepEqual(
        (await s.storage.vectors.vectors(s.bots[0], 'm')).map((v) => [v.chunkId, [...v.vector]]),
        [[first, [1, 2, 3, 4]]],
      );
      assert.deepEqual([...(await s.storage.vectors.embeddedPerSource(s.bots[0], 'm'))], [['a', 1]]);
      assert.deepEqual(
        (await s.storage.vectors.passagesByIds(s.bots[0], [second])).map((p) => [p.sourceId, p.text, p.score]),
        [['a', 'two', 0]],
      );
      await assert.rejects(
        s.storage.transaction(async (tx) => {
          await tx.knowledge.insert(source('ghost', s.bots[1]), LIMITS);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.deepEqual(await s.storage.knowledge.list(s.bots[1]), []);
    });
  });
}
