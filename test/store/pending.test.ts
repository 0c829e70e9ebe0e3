// Messages queued for a custom-channel client's PENDING poll: handed out once, oldest first.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReplyPart } from '../../src/engine/types.js';
import { databaseKinds } from '../support/databases.js';
import { conversationRecord, openRaw, openTestStore, part, seedBot, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store pending messages (${kind})`, () => {
    const ctx = storePerTest(kind);

    const newConversation = async (userId = 'user-1') => {
      const { bot } = await seedBot(ctx.store);
      return (await ctx.store.conversations.insert(conversationRecord(bot.id, userId)))!;
    };

    test('takePending returns queued parts oldest first, marks them delivered, and keeps history', async () => {
      const id = await newConversation();
      const other = await newConversation();
      await ctx.store.conversations.appendMessages(
        id,
        [
          { direction: 'BOT', parts: [part('a1'), part('a2')], pending: true },
          { direction: 'USER', parts: [part('user says')], pending: false },
          { direction: 'OPERATOR', parts: [part('c1')], pending: true },
        ],
        1000,
      );
      await ctx.store.conversations.appendMessages(other, [{ direction: 'BOT', parts: [part('d1')], pending: true }], 1000);

      assert.deepEqual(await ctx.store.conversations.takePending(id), [part('a1'), part('a2'), part('c1')]);
      assert.deepEqual(await ctx.store.conversations.takePending(id), []);
      assert.deepEqual(await ctx.store.conversations.historyParts(id), [part('a1'), part('a2'), part('user says'), part('c1')]);
      assert.equal(await ctx.store.conversations.messageCount(id), 3);

      // Another conversation's queue is untouched.
      assert.deepEqual(await ctx.store.conversations.takePending(other), [part('d1')]);

      // Messages queued later come out on the next poll, alone.
      await ctx.store.conversations.appendMessages(id, [{ direction: 'BOT', parts: [part('later')], pending: true }], 2000);
      assert.deepEqual(await ctx.store.conversations.takePending(id), [part('later')]);
      assert.deepEqual(await ctx.store.conversations.takePending(id), []);
    });

    test('oldest first even when the database returns rows out of order', async () => {
      const id = await newConversation();
      const texts = Array.from({ length: 8 }, (_, i) => `m${i}`);
      await ctx.store.conversations.appendMessages(
        id,
        texts.map((t) => ({ direction: 'BOT' as const, parts: [part(t)], pending: true })),
        1000,
      );
      // Rewrite the oldest row so it moves to the end of the table's physical order (PostgreSQL
      // writes a new row version; an UPDATE … RETURNING then meets it last).
      const raw = await openRaw(ctx.db);
      try {
        const oldest = await raw.get<{ id: number }>('SELECT MIN(id) AS id FROM messages WHERE conversation_id = $1', [id]);
        await raw.run('UPDATE messages SET pending = 2 WHERE id = $1', [Number(oldest!.id)]);
        await raw.run('UPDATE messages SET pending = 1 WHERE id = $1', [Number(oldest!.id)]);
      } finally {
        await raw.close();
      }
      assert.deepEqual(
        (await ctx.store.conversations.takePending(id)).map((p) => p.Text),
        texts,
      );
    });

    test('two concurrent takePending calls never both return a message (20 pairs)', async () => {
      const id = await newConversation();
      let n = 0;
      for (let round = 0; round < 20; round++) {
        const queued: ReplyPart[] = [];
        for (let m = 0; m < 3; m++) {
          const parts = [part(`r${round}-m${m}-a`), part(`r${round}-m${m}-b`)];
          queued.push(...parts);
          await ctx.store.conversations.appendMessages(id, [{ direction: 'BOT', parts, pending: true }], ++n);
        }
        // Odd rounds poll inside transactions, as the chat service does.
        const take = () => (round % 2 ? ctx.store.transaction((tx) => tx.conversations.takePending(id)) : ctx.store.conversations.takePending(id));
        const [left, right] = await Promise.all([take(), take()]);
        const texts = [...left, ...right].map((p) => p.Text);
        assert.equal(new Set(texts).size, texts.length, `round ${round}: a part was delivered twice`);
        assert.deepEqual([...texts].sort(), queued.map((p) => p.Text).sort(), `round ${round}: every part delivered once`);
        // Whatever each poll got, it got oldest first.
        for (const got of [left, right])
          assert.deepEqual(
            got,
            queued.filter((p) => got.some((g) => g.Text === p.Text)),
          );
        assert.deepEqual(await ctx.store.conversations.takePending(id), []);
      }
    });

    // A SQLite database belongs to one process; PostgreSQL is shared by several nodes.
    if (kind === 'postgres') {
      test('concurrent polls from a second store (another node) never duplicate a message', async () => {
        const id = await newConversation();
        const node2 = await openTestStore(ctx.db);
        try {
          for (let round = 0; round < 20; round++) {
            const queued = [part(`n${round}-x`), part(`n${round}-y`)];
            await ctx.store.conversations.appendMessages(
              id,
              queued.map((p) => ({ direction: 'BOT' as const, parts: [p], pending: true })),
              round,
            );
            const [a, b] = await Promise.all([ctx.store.conversations.takePending(id), node2.conversations.takePending(id)]);
            const texts = [...a, ...b].map((p) => p.Text);
            assert.deepEqual([...texts].sort(), queued.map((p) => p.Text).sort(), `round ${round}`);
          }
        } finally {
          await node2.close();
        }
      });
    }
  });
}
