// The conversation storage port (src/conversations/port.ts): one contract, three implementations
// — in memory (the conversation service's unit tests run on it), SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ConversationStorage } from '../../src/conversations/port.js';
import type { BotRecord } from '../../src/bots/model.js';
import { databaseKinds } from '../support/databases.js';
import { MemoryStorage } from '../support/memory-storage.js';
import { conversationRecord, openMigratedTestStore, part, seedBot } from './store-fixtures.js';

interface Subject {
  storage: ConversationStorage;
  bot: BotRecord;
  close(): Promise<void>;
}

async function open(kind: 'memory' | 'sqlite' | 'postgres'): Promise<Subject> {
  if (kind === 'memory') {
    const bot = { id: 'bot-1', accountId: 'acc-1' } as BotRecord;
    return { storage: new MemoryStorage(new Map([[bot.id, bot]])), bot, close: async () => undefined };
  }
  const { store, close } = await openMigratedTestStore(kind);
  const { bot } = await seedBot(store);
  return { storage: store, bot, close };
}

for (const kind of ['memory', ...databaseKinds()] as const) {
  describe(`conversation storage port (${kind})`, () => {
    let s: Subject;
    beforeEach(async () => (s = await open(kind)));
    afterEach(() => s.close());

    const insert = (userId: string) => s.storage.transaction((tx) => tx.conversations.insert(conversationRecord(s.bot.id, userId)));

    test('insert, then read by user and by id; a second insert of the same user is refused with null', async () => {
      const id = await insert('ann');
      assert.equal(typeof id, 'number');
      const byUser = await s.storage.conversations.byUser(s.bot.id, 'ann');
      assert.equal(byUser?.id, id);
      assert.equal(byUser?.userId, 'ann');
      assert.equal((await s.storage.conversations.byId(id!))?.userId, 'ann');
      assert.equal(await insert('ann'), null);
      assert.equal(await s.storage.conversations.byUser(s.bot.id, 'bob'), null);
    });

    test('save checks the revision: a stale copy is refused and changes nothing', async () => {
      const id = (await insert('ann'))!;
      const first = (await s.storage.conversations.byId(id))!;
      assert.equal(await s.storage.transaction((tx) => tx.conversations.save({ ...first, channel: 'web' })), true);
      assert.equal(await s.storage.transaction((tx) => tx.conversations.save({ ...first, channel: 'telegram' })), false);
      const now = (await s.storage.conversations.byId(id))!;
      assert.equal(now.channel, 'web');
      assert.equal(now.revision, first.revision + 1);
    });

    test('a transaction that throws leaves nothing behind', async () => {
      await assert.rejects(
        s.storage.transaction(async (tx) => {
          await tx.conversations.insert(conversationRecord(s.bot.id, 'ghost'));
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await s.storage.conversations.byUser(s.bot.id, 'ghost'), null);
    });

    test('history oldest first (parts, JSON, last N), pending taken once, trimming keeps the newest', async () => {
      const id = (await insert('ann'))!;
      await s.storage.transaction((tx) =>
        tx.conversations.appendMessages(
          id,
          [
            { direction: 'BOT', parts: [part('a'), part('b')], pending: true },
            { direction: 'USER', parts: [part('c')], pending: false },
            { direction: 'OPERATOR', parts: [part('d')], pending: true },
          ],
          1000,
        ),
      );
      assert.deepEqual(await s.storage.conversations.historyParts(id), [part('a'), part('b'), part('c'), part('d')]);
      assert.deepEqual(JSON.parse(await s.storage.conversations.historyJson(id)), [part('a'), part('b'), part('c'), part('d')]);
      assert.deepEqual(await s.storage.conversations.historyParts(id, 2), [part('c'), part('d')]);
      const stored = await s.storage.conversations.storedMessages(id, 2);
      assert.deepEqual(
        stored.map((m) => [m.direction, m.parts, m.createdAt]),
        [
          ['USER', [part('c')], 1000],
          ['OPERATOR', [part('d')], 1000],
        ],
      );
      assert.deepEqual(await s.storage.transaction((tx) => tx.conversations.takePending(id)), [part('a'), part('b'), part('d')]);
      assert.deepEqual(await s.storage.transaction((tx) => tx.conversations.takePending(id)), []);
      assert.equal(await s.storage.transaction((tx) => tx.conversations.trimHistory(id, 2, 1_000_000)), 1);
      assert.deepEqual(await s.storage.conversations.historyParts(id), [part('c'), part('d')]);
    });

    test('ended bans are listed; an expired auto link is handed back once; forgetting ids and removal', async () => {
      const id = (await insert('ann'))!;
      const ann = (await s.storage.conversations.byId(id))!;
      await s.storage.transaction((tx) => tx.conversations.save({ ...ann, controlState: 3, banExpiration: '2026-11-20', banMessage: 'x' }));
      assert.deepEqual(await s.storage.conversations.endedBans('2026-11-21'), [{ botId: s.bot.id, userId: 'ann' }]);
      assert.deepEqual(await s.storage.conversations.endedBans('2026-11-20'), []);

      await s.storage.transaction((tx) => tx.shares.insert({ code: 'code-1', conversationId: id, mode: 'auto', expiresAt: 500, handedBack: false, createdAt: 1 }));
      const expired = await s.storage.shares.expiredAuto(500);
      assert.equal(expired.length, 1);
      assert.equal(await s.storage.shares.markHandedBack(expired[0].codeHash), true);
      assert.equal(await s.storage.shares.markHandedBack(expired[0].codeHash), false);
      assert.deepEqual(await s.storage.shares.expiredAuto(500), []);

      const now = (await s.storage.conversations.byId(id))!;
      await s.storage.transaction((tx) => tx.conversations.save({ ...now, forgetting: true }));
      assert.deepEqual(await s.storage.conversations.forgettingIds(), [id]);
      await s.storage.conversations.remove(id);
      assert.equal(await s.storage.conversations.byId(id), null);
      assert.deepEqual(await s.storage.conversations.forgettingIds(), []);
    });
  });
}
