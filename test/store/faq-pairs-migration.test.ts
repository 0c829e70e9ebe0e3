// Migration 026 (knowledge/faq-pairs.ts): an FAQ indexed before pairs were kept gets them back from
// its passages, in order, a long question (its heading cut at 200 characters) and a long answer
// (several passages) included; other kinds get none. Run on both databases, through the
// migration's own data step over passages cut exactly as the server cuts them.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import type { SourceRecord } from '../../src/knowledge/model.js';
import { passagesOf } from '../../src/knowledge/passages.js';
import { faqPairs } from '../../src/store/migrations/026-faq-pairs.js';
import { databaseKinds } from '../support/databases.js';
import { openRaw, seedBot, storePerTest } from './store-fixtures.js';

const LIMITS = { sources: 10, bytes: 1_000_000 };
const longQuestion = `Which of our ${'very '.repeat(60)}old bikes can still be repaired?`;
const longAnswer = ['First paragraph of a long answer. '.repeat(30).trim(), 'Second paragraph, also long. '.repeat(30).trim()].join('\n\n');
const FAQ = [
  { Question: 'Do you repair e-bikes?', Answer: 'Yes, every make.' },
  { Question: longQuestion, Answer: 'All of them, given the parts.' },
  { Question: 'What does a service include?', Answer: longAnswer },
];

for (const kind of databaseKinds()) {
  describe(`migration 026: FAQ pairs from passages (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('an FAQ stored as passages only gets its pairs back; a text source gets none', async () => {
      const { bot } = await seedBot(ctx.store);
      const add = async (sourceKind: 'faq' | 'text', passages: Array<{ heading: string; text: string }>) => {
        const id = crypto.randomUUID();
        const record: SourceRecord = {
          id,
          botId: bot.id,
          name: sourceKind,
          kind: sourceKind,
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
          await tx.knowledge.insert(record, LIMITS);
          await tx.knowledge.swapIn(id, 0, passages, 'en', 2);
        });
        return id;
      };
      const faqPassages = passagesOf({ kind: 'faq', faq: FAQ });
      assert.equal(faqPassages.length, 4, 'the long answer takes two passages');
      const faq = await add('faq', faqPassages);
      const text = await add('text', passagesOf({ kind: 'text', text: 'Question?\nA line under it.' }));
      const raw = await openRaw(ctx.db);
      try {
        await faqPairs.data!(raw, undefined as never);
      } finally {
        await raw.close();
      }
      assert.deepEqual(
        (await ctx.store.faqPairs.page(faq, -1, 10)).map(({ Question, Answer }) => ({ Question, Answer })),
        FAQ,
      );
      assert.deepEqual(await ctx.store.faqPairs.page(text, -1, 10), []);
    });
  });
}
