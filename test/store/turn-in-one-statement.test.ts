// Store.saveTurn: a turn's usual writes, all or nothing: on PostgreSQL in one statement
// (turn-in-one-statement.ts), on SQLite as a lean member of the group's transaction
// (sqlite-save-turn.ts). Both give the same outcomes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TurnSave } from '../../src/conversations/port.js';
import { databaseKinds } from '../support/databases.js';
import { conversationRecord, part, seedBot, storePerTest } from './store-fixtures.js';

const ONE_TURN = { messages: 1, replies: 1, notifications: 0, apiCalls: 2, aiTokens: 17 };
const NONE = { messages: 0, replies: 0, notifications: 0, apiCalls: 0, aiTokens: 0 };

for (const kind of databaseKinds()) {
  describe(`a turn's writes in one statement (${kind})`, () => {
    const ctx = storePerTest(kind);

    const setUp = async () => {
      const { bot } = await seedBot(ctx.store);
      const id = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'ann')))!;
      await ctx.store.transaction((tx) => tx.conversations.appendMessages(id, [{ direction: 'BOT', parts: [part('welcome')], pending: false }], 1));
      const conversation = (await ctx.store.conversations.byId(id))!;
      const turn = (over: Partial<TurnSave> = {}): TurnSave => ({
        conversation: { ...conversation, operator: 'op-1', state: { ...conversation.state, variables: { seen: 'yes' } }, updatedAt: 5000 },
        controlChanged: true,
        missedTexts: [
          { botId: bot.id, conversationId: id, text: ' Blah ', key: 'blah', behaviour: 'Main', interaction: 'Fallback', createdAt: 5000 },
          { botId: bot.id, conversationId: id, text: 'BLAH', key: 'blah', behaviour: 'Main', interaction: 'Other', createdAt: 5000 },
        ],
        messages: [
          { direction: 'USER', parts: [part('héllo')], pending: false },
          { direction: 'BOT', parts: [part('a'), part('b')], pending: true },
        ],
        usage: { accountId: bot.accountId, month: '2026-11', add: ONE_TURN },
        limits: { messages: 1000, bytes: 1_000_000, missedTexts: 100 },
        ...over,
      });
      return { bot, id, conversation, turn };
    };
    const sizeOf = (id: number) => ctx.store.transaction((tx) => tx.conversations.appendMessages(id, [], 1));

    test('saved: the conversation (revision + 1), the messages in order with their size, the usage', async () => {
      const { bot, id, conversation, turn } = await setUp();
      const before = await sizeOf(id);
      assert.equal(await ctx.store.saveTurn!(turn()), 'saved');
      const stored = (await ctx.store.conversations.byId(id))!;
      assert.equal(stored.revision, conversation.revision + 1);
      assert.equal(stored.operator, 'op-1');
      assert.deepEqual(stored.state.variables, { seen: 'yes' });
      assert.equal(stored.updatedAt, 5000);
      const messages = await ctx.store.conversations.storedMessages(id, 10);
      assert.deepEqual(
        messages.map((m) => [m.direction, m.parts.map((p) => p.Text), m.createdAt]),
        [
          ['BOT', ['welcome'], 1],
          ['USER', ['héllo'], 5000],
          ['BOT', ['a', 'b'], 5000],
        ],
      );
      assert.deepEqual(await ctx.store.conversations.takePending(id), [part('a'), part('b')]);
      const added = Buffer.byteLength(JSON.stringify([part('héllo')])) + Buffer.byteLength(JSON.stringify([part('a'), part('b')]));
      assert.deepEqual(await sizeOf(id), { messages: before.messages + 2, bytes: before.bytes + added });
      assert.deepEqual(await ctx.store.accounts.usage(bot.accountId, '2026-11'), { month: '2026-11', ...ONE_TURN });
      // both missed texts, in order (the later one says where the group was last missed)
      assert.deepEqual(await ctx.store.missedTexts.grouped(bot.id, 10), [{ key: 'blah', count: 2, lastAt: 5000, behaviour: 'Main', interaction: 'Other' }]);
      // a second turn adds to the usage row
      const again = (await ctx.store.conversations.byId(id))!;
      assert.equal(await ctx.store.saveTurn!(turn({ conversation: again, messages: [], missedTexts: [] })), 'saved');
      assert.deepEqual(await ctx.store.accounts.usage(bot.accountId, '2026-11'), { month: '2026-11', messages: 2, replies: 2, notifications: 0, apiCalls: 4, aiTokens: 34 });
    });

    test('conflict: a stale revision, or a deleted conversation, writes nothing at all', async () => {
      const { bot, id, conversation, turn } = await setUp();
      await ctx.store.transaction((tx) => tx.conversations.save({ ...conversation, channel: 'web' }));
      assert.equal(await ctx.store.saveTurn!(turn()), 'conflict');
      assert.equal((await ctx.store.conversations.byId(id))!.operator, null);
      assert.equal(await ctx.store.conversations.messageCount(id), 1);
      assert.deepEqual(await ctx.store.accounts.usage(bot.accountId, '2026-11'), { month: '2026-11', ...NONE });
      assert.deepEqual(await ctx.store.missedTexts.grouped(bot.id, 10), []);
      await ctx.store.conversations.remove(id);
      assert.equal(await ctx.store.saveTurn!(turn()), 'conflict');
    });

    test('over-limit: a history that would cross either limit is left to the transaction path, nothing written', async () => {
      const { bot, id, conversation, turn } = await setUp();
      const size = await sizeOf(id);
      assert.equal(await ctx.store.saveTurn!(turn({ limits: { messages: size.messages + 1, bytes: 1_000_000, missedTexts: 100 } })), 'over-limit');
      assert.equal(await ctx.store.saveTurn!(turn({ limits: { messages: 1000, bytes: size.bytes + 10, missedTexts: 100 } })), 'over-limit');
      assert.deepEqual(await ctx.store.conversations.byId(id), conversation);
      assert.deepEqual(await sizeOf(id), size);
      assert.deepEqual(await ctx.store.accounts.usage(bot.accountId, '2026-11'), { month: '2026-11', ...NONE });
      assert.deepEqual(await ctx.store.missedTexts.grouped(bot.id, 10), []);
      // exactly at the limits is within them
      const exact = Buffer.byteLength(JSON.stringify([part('héllo')])) + Buffer.byteLength(JSON.stringify([part('a'), part('b')]));
      assert.equal(await ctx.store.saveTurn!(turn({ limits: { messages: size.messages + 2, bytes: size.bytes + exact, missedTexts: 100 } })), 'saved');
    });

    test('a turn that changed no control column (the lean update on SQLite) saves state, history and usage', async () => {
      const { bot, id, conversation, turn } = await setUp();
      const lean = turn({ controlChanged: false, conversation: { ...conversation, state: { ...conversation.state, variables: { seen: 'lean' } }, updatedAt: 6000 } });
      assert.equal(await ctx.store.saveTurn!(lean), 'saved');
      const stored = (await ctx.store.conversations.byId(id))!;
      assert.deepEqual(stored, { ...conversation, state: { ...conversation.state, variables: { seen: 'lean' } }, revision: conversation.revision + 1, updatedAt: 6000 });
      assert.deepEqual(await ctx.store.accounts.usage(bot.accountId, '2026-11'), { month: '2026-11', ...ONE_TURN });
      assert.equal(await ctx.store.conversations.messageCount(id), 3);
      // on the lean path too, a stale revision is a conflict and a history past a limit is over-limit
      assert.equal(await ctx.store.saveTurn!(lean), 'conflict');
      assert.equal(await ctx.store.saveTurn!({ ...lean, conversation: stored, limits: { messages: 3, bytes: 1_000_000, missedTexts: 100 } }), 'over-limit');
      assert.equal((await ctx.store.conversations.byId(id))!.revision, conversation.revision + 1);
    });

    test('the conversation keeps its newest missed texts: the older ones go with the write, on both paths', async () => {
      const { bot, id, turn } = await setUp();
      const miss = (key: string, at: number) => ({ botId: bot.id, conversationId: id, text: key, key, behaviour: 'Main', interaction: 'Fallback', createdAt: at });
      const keys = async () => (await ctx.store.missedTexts.grouped(bot.id, 100)).map((g) => g.key).sort();
      for (const [n, controlChanged] of [
        [1, true],
        [2, false],
        [3, true],
        [4, false],
      ] as const) {
        const current = (await ctx.store.conversations.byId(id))!;
        const saved = await ctx.store.saveTurn!(
          turn({ conversation: current, controlChanged, messages: [], missedTexts: [miss(`m${n}`, 5000 + n)], limits: { messages: 1000, bytes: 1_000_000, missedTexts: 2 } }),
        );
        assert.equal(saved, 'saved');
      }
      assert.deepEqual(await keys(), ['m3', 'm4']);
      // the transaction path (a turn that trims its history, writes webhooks…) keeps the same bound
      await ctx.store.transaction((tx) => tx.missedTexts.add(id, [miss('m5', 6000), miss('m6', 6000)], 2));
      assert.deepEqual(await keys(), ['m5', 'm6']);
      // a turn that is not a trimming one (-1, turns.ts) leaves them, even with a miss of its own
      let current = (await ctx.store.conversations.byId(id))!;
      assert.equal(await ctx.store.saveTurn!(turn({ conversation: current, messages: [], missedTexts: [miss('m7', 7000)], limits: { messages: 1000, bytes: 1_000_000, missedTexts: -1 } })), 'saved');
      assert.deepEqual(await keys(), ['m5', 'm6', 'm7']);
      // a trimming turn trims even when it missed nothing, so a conversation cannot dodge the trim
      current = (await ctx.store.conversations.byId(id))!;
      assert.equal(await ctx.store.saveTurn!(turn({ conversation: current, messages: [], missedTexts: [], limits: { messages: 1000, bytes: 1_000_000, missedTexts: 1 } })), 'saved');
      assert.deepEqual(await keys(), ['m7']);
      await ctx.store.transaction((tx) => tx.missedTexts.add(id, [], 0));
      assert.deepEqual(await keys(), []);
    });
  });
}
