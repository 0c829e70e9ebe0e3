import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReplyPart } from '../../src/engine/types.js';
import { databaseKinds } from '../support/databases.js';
import { conversationRecord, part, seedBot, storePerTest } from './store-fixtures.js';
import type { ConversationRecord } from '../../src/conversations/model.js';

for (const kind of databaseKinds()) {
  describe(`store conversations (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('insert returns a numeric id; the record reads back by user and by id', async () => {
      const { bot } = await seedBot(ctx.store);
      const fields = conversationRecord(bot.id, 'user-1', {
        channel: 'web',
        state: {
          v: 1,
          position: { behaviour: 'Main', interaction: 'Welcome' },
          previous: null,
          bookmark: { behaviour: 'Main', interaction: 'Start' },
          variables: { name: 'Ana', empty: '' },
          tags: ['vip'],
          privacy: { email: true },
          waiting: null,
        },
        controlState: 2,
        operator: 'op-7',
        revision: 4,
      });
      const id = await ctx.store.conversations.insert(fields);
      assert.equal(typeof id, 'number');
      assert.ok(id! > 0);
      assert.deepEqual(await ctx.store.conversations.byUser(bot.id, 'user-1'), { ...fields, id });
      assert.deepEqual(await ctx.store.conversations.byId(id!), { ...fields, id });
      assert.equal(await ctx.store.conversations.byUser(bot.id, 'user-2'), null);
      assert.equal(await ctx.store.conversations.byId(id! + 1000), null);
    });

    test('a second insert for the same bot and user returns null and changes nothing', async () => {
      const { bot } = await seedBot(ctx.store);
      const { bot: otherBot } = await seedBot(ctx.store);
      const first = conversationRecord(bot.id, 'user-1', { channel: 'custom' });
      const id = await ctx.store.conversations.insert(first);
      assert.equal(await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1', { channel: 'web', controlState: 3 })), null);
      assert.deepEqual(await ctx.store.conversations.byUser(bot.id, 'user-1'), { ...first, id });
      // The same user id under another bot is another conversation.
      const otherId = await ctx.store.conversations.insert(conversationRecord(otherBot.id, 'user-1'));
      assert.equal(typeof otherId, 'number');
      assert.notEqual(otherId, id);
    });

    test('concurrent inserts for one bot and user: exactly one gets an id', async () => {
      const { bot } = await seedBot(ctx.store);
      for (let round = 0; round < 10; round++) {
        const ids = await Promise.all([0, 1, 2].map(() => ctx.store.conversations.insert(conversationRecord(bot.id, `racer-${round}`))));
        assert.equal(ids.filter((id) => id === null).length, 2, `round ${round}`);
        const winner = ids.find((id) => id !== null);
        assert.equal((await ctx.store.conversations.byUser(bot.id, `racer-${round}`))!.id, winner);
      }
    });

    test('a state stored before versions existed reads back upgraded to the current shape', async () => {
      const { bot } = await seedBot(ctx.store);
      // The shape written before issue 12: no `v`, and rows from older code may lack fields.
      const old = { position: { behaviour: 'Main', interaction: 'Start' }, variables: { name: 'Ana' }, tags: ['vip'] };
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'old-user', { state: old as never })))!;
      assert.deepEqual((await ctx.store.conversations.byId(id))!.state, {
        v: 1,
        position: { behaviour: 'Main', interaction: 'Start' },
        previous: null,
        bookmark: null,
        variables: { name: 'Ana' },
        tags: ['vip'],
        privacy: {},
        waiting: null,
      });
    });

    test('save with the current revision writes and bumps the revision; a stale one writes nothing', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1', { revision: 0 })))!;
      const read = (await ctx.store.conversations.byId(id))!;
      const edited: ConversationRecord = {
        ...read,
        channel: 'web',
        state: { ...read.state, variables: { step: 'two' }, position: { behaviour: 'Main', interaction: 'Two' } },
        controlState: 3,
        operator: 'op-1',
        banExpiration: '2030-01-01',
        banMessage: 'Banned "for now"',
        forgetting: true,
        updatedAt: read.updatedAt + 5000,
      };
      assert.equal(await ctx.store.conversations.save(edited), true);
      const saved = { ...edited, revision: 1 };
      assert.deepEqual(await ctx.store.conversations.byId(id), saved);

      // `read` still carries revision 0: its writer lost the race.
      assert.equal(await ctx.store.conversations.save({ ...read, channel: 'stale', updatedAt: 1 }), false);
      assert.deepEqual(await ctx.store.conversations.byId(id), saved);

      assert.equal(await ctx.store.conversations.save({ ...saved, state: { ...saved.state, tags: ['again'] } }), true);
      assert.equal((await ctx.store.conversations.byId(id))!.revision, 2);
      assert.deepEqual((await ctx.store.conversations.byId(id))!.state.tags, ['again']);
      assert.equal(await ctx.store.conversations.save({ ...saved, id: id + 1000 }), false);
    });

    test('two concurrent saves from one read: exactly one wins', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      for (let round = 0; round < 10; round++) {
        const read = (await ctx.store.conversations.byId(id))!;
        const results = await Promise.all(['a', 'b'].map((side) => ctx.store.conversations.save({ ...read, state: { ...read.state, variables: { side } } })));
        assert.deepEqual([...results].sort(), [false, true], `round ${round}`);
        const after = (await ctx.store.conversations.byId(id))!;
        assert.equal(after.revision, read.revision + 1);
        assert.deepEqual(after.state.variables, { side: results[0] ? 'a' : 'b' });
      }
    });

    test('history keeps parts in order across messages, nested parts included', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      const other = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-2')))!;
      const p = (n: number): ReplyPart => part(`p${n}`);
      const carousel = part('p4', [part('card-a'), part('card-b')]);
      await ctx.store.conversations.appendMessages(id, [{ direction: 'USER', parts: [p(1)], pending: false }], 1000);
      await ctx.store.conversations.appendMessages(other, [{ direction: 'USER', parts: [part('elsewhere')], pending: false }], 1000);
      await ctx.store.conversations.appendMessages(
        id,
        [
          { direction: 'BOT', parts: [p(2), p(3), carousel], pending: false },
          { direction: 'OPERATOR', parts: [p(5), p(6)], pending: true },
        ],
        2000,
      );
      await ctx.store.conversations.appendMessages(id, [{ direction: 'USER', parts: [p(7)], pending: false }], 3000);
      const all = [p(1), p(2), p(3), carousel, p(5), p(6), p(7)];
      assert.deepEqual(await ctx.store.conversations.historyParts(id), all);
      assert.deepEqual(await ctx.store.conversations.historyParts(other), [part('elsewhere')]);
      assert.equal(await ctx.store.conversations.messageCount(id), 4);
      assert.equal(await ctx.store.conversations.messageCount(other), 1);
      assert.deepEqual(await ctx.store.conversations.historyParts(id + 1000), []);
    });

    test('historyParts with a limit gives exactly the last N parts, even inside multi-part messages', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      const sizes = [1, 3, 2, 4, 1]; // 11 parts in 5 messages
      let n = 0;
      for (const size of sizes) {
        const parts = Array.from({ length: size }, () => part(`p${++n}`));
        await ctx.store.conversations.appendMessages(id, [{ direction: 'BOT', parts, pending: false }], 1000 + n);
      }
      const all = await ctx.store.conversations.historyParts(id);
      assert.deepEqual(
        all.map((x) => x.Text),
        Array.from({ length: 11 }, (_, i) => `p${i + 1}`),
      );
      for (let limit = 1; limit <= 13; limit++) {
        const expected = all.slice(Math.max(0, all.length - limit));
        assert.deepEqual(await ctx.store.conversations.historyParts(id, limit), expected, `limit ${limit}`);
      }
      assert.deepEqual(
        (await ctx.store.conversations.historyParts(id, 3))!.map((x) => x.Text),
        ['p9', 'p10', 'p11'],
      );
      assert.deepEqual(
        (await ctx.store.conversations.historyParts(id, 6))!.map((x) => x.Text),
        ['p6', 'p7', 'p8', 'p9', 'p10', 'p11'],
      );
      assert.deepEqual(await ctx.store.conversations.historyParts(id, 0), []);
    });

    test('the history size kept in the conversation row follows appends and both kinds of trim exactly', async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      const other = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-2')))!;
      const bytesOf = (parts: ReplyPart[]) => Buffer.byteLength(JSON.stringify(parts));
      // multi-byte text: bytes, not characters, are counted
      const messages = Array.from({ length: 6 }, (_, i) => ({ direction: 'BOT' as const, parts: [part(`héllo ${i} ✓`)], pending: false }));
      const sizes = await ctx.store.transaction(async (tx) => [
        await tx.conversations.appendMessages(id, messages.slice(0, 4), 1),
        await tx.conversations.appendMessages(id, messages.slice(4), 2),
        await tx.conversations.appendMessages(other, messages.slice(0, 1), 2),
      ]);
      const total = messages.reduce((sum, m) => sum + bytesOf(m.parts), 0);
      assert.deepEqual(sizes, [
        { messages: 4, bytes: messages.slice(0, 4).reduce((sum, m) => sum + bytesOf(m.parts), 0) },
        { messages: 6, bytes: total },
        { messages: 1, bytes: bytesOf(messages[0].parts) },
      ]);
      // over the count: the two oldest go, and the size follows
      assert.equal(await ctx.store.transaction((tx) => tx.conversations.trimHistory(id, 4, 1_000_000)), 2);
      const afterCount = await ctx.store.transaction((tx) => tx.conversations.appendMessages(id, [], 3));
      assert.deepEqual(afterCount, { messages: 4, bytes: total - bytesOf(messages[0].parts) - bytesOf(messages[1].parts) });
      // over the bytes: only what fits the newest-first budget stays
      const budget = bytesOf(messages[5].parts) + bytesOf(messages[4].parts);
      assert.equal(await ctx.store.transaction((tx) => tx.conversations.trimHistory(id, 100, budget)), 2);
      assert.deepEqual(
        (await ctx.store.conversations.historyParts(id)).map((p) => p.Text),
        ['héllo 4 ✓', 'héllo 5 ✓'],
      );
      assert.deepEqual(await ctx.store.transaction((tx) => tx.conversations.appendMessages(id, [], 4)), { messages: 2, bytes: budget });
      // under both limits nothing goes; the other conversation was never touched
      assert.equal(await ctx.store.transaction((tx) => tx.conversations.trimHistory(id, 2, budget)), 0);
      assert.equal(await ctx.store.conversations.messageCount(other), 1);
    });

    test('conversationsByState counts every conversation by control state', async () => {
      assert.deepEqual(await ctx.store.conversationsByState(), { bot: 0, requested: 0, operator: 0, banned: 0 });
      const { bot } = await seedBot(ctx.store);
      const { bot: otherBot } = await seedBot(ctx.store);
      const states = [0, 0, 1, 2, 3, 3, 3] as const;
      for (const [i, controlState] of states.entries()) {
        await ctx.store.conversations.insert(conversationRecord(i % 2 ? bot.id : otherBot.id, `user-${i}`, { controlState }));
      }
      assert.deepEqual(await ctx.store.conversationsByState(), { bot: 2, requested: 1, operator: 1, banned: 3 });
      await ctx.store.transaction(async (tx) => {
        const c = (await tx.conversations.byUser(otherBot.id, 'user-0'))!;
        assert.equal(await tx.conversations.save({ ...c, controlState: 2 }), true);
      });
      assert.deepEqual(await ctx.store.conversationsByState(), { bot: 1, requested: 1, operator: 2, banned: 3 });
    });

    test('remove deletes the conversation and its messages only', async () => {
      const { bot } = await seedBot(ctx.store);
      const gone = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      const kept = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-2')))!;
      for (const id of [gone, kept]) {
        await ctx.store.conversations.appendMessages(
          id,
          [
            { direction: 'USER', parts: [part(`hi ${id}`)], pending: false },
            { direction: 'BOT', parts: [part(`hello ${id}`)], pending: true },
          ],
          1000,
        );
      }
      await ctx.store.conversations.remove(gone);
      assert.equal(await ctx.store.conversations.byId(gone), null);
      assert.equal(await ctx.store.conversations.byUser(bot.id, 'user-1'), null);
      assert.equal(await ctx.store.conversations.messageCount(gone), 0);
      assert.deepEqual(await ctx.store.conversations.historyParts(gone), []);
      assert.deepEqual(await ctx.store.conversations.takePending(gone), []);
      assert.equal(await ctx.store.conversations.messageCount(kept), 2);
      assert.deepEqual(await ctx.store.conversations.historyParts(kept), [part(`hi ${kept}`), part(`hello ${kept}`)]);
      // The user can start over: a new conversation, with a new id and an empty history.
      const again = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      assert.notEqual(again, gone);
      assert.deepEqual(await ctx.store.conversations.historyParts(again), []);
      await ctx.store.conversations.remove(gone); // removing twice is harmless
    });

    test('forgettingIds lists exactly the conversations being forgotten', async () => {
      const { bot } = await seedBot(ctx.store);
      assert.deepEqual(await ctx.store.conversations.forgettingIds(), []);
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await ctx.store.conversations.insert(conversationRecord(bot.id, `user-${i}`, { forgetting: i % 2 === 0 })))!);
      }
      const listed = await ctx.store.conversations.forgettingIds();
      assert.deepEqual(
        [...listed].sort((a, b) => a - b),
        [ids[0], ids[2], ids[4]],
      );
      const c = (await ctx.store.conversations.byId(ids[1]))!;
      assert.equal(await ctx.store.conversations.save({ ...c, forgetting: true }), true);
      await ctx.store.conversations.remove(ids[0]);
      const after = await ctx.store.conversations.forgettingIds();
      assert.deepEqual(
        [...after].sort((a, b) => a - b),
        [ids[1], ids[2], ids[4]],
      );
    });
  });
}
