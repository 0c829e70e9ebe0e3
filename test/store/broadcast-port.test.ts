// The broadcasts storage port (src/broadcasts/port.ts): one contract, three implementations — in
// memory (test/support/memory-broadcasts.ts, for the broadcasts' rules without a database), SQLite
// and PostgreSQL. What the service and the scheduler rely on: a bot's cap on active broadcasts,
// leases one node holds at a time, recipients claimed per attempt and decided once under their
// claim, the audience's candidates in id order, and webhook notices claimed by one attempt.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { BotRecord } from '../../src/bots/model.js';
import type { BroadcastRecord } from '../../src/broadcasts/model.js';
import type { BroadcastStorage } from '../../src/broadcasts/port.js';
import { databaseKinds } from '../support/databases.js';
import { MemoryBroadcasts } from '../support/memory-broadcasts.js';
import { conversationRecord, openMigratedTestStore, seedBot } from './store-fixtures.js';

interface Subject {
  storage: BroadcastStorage;
  bots: [string, string];
  /** a conversation of the bot (created at `createdAt`, no message kept); its id */
  conversation(botId: string, userId: string, channel: string, createdAt: number): Promise<number>;
  close(): Promise<void>;
}

async function open(kind: 'memory' | 'sqlite' | 'postgres'): Promise<Subject> {
  if (kind === 'memory') {
    const bots = new Map(['bot-1', 'bot-2'].map((id) => [id, { id, accountId: 'acc-1' } as BotRecord]));
    const memory = new MemoryBroadcasts(bots);
    return { storage: memory, bots: ['bot-1', 'bot-2'], conversation: async (...a) => memory.addConversation(...a), close: async () => undefined };
  }
  const { store, close } = await openMigratedTestStore(kind);
  return {
    storage: store,
    bots: [(await seedBot(store)).bot.id, (await seedBot(store)).bot.id],
    conversation: async (botId, userId, channel, createdAt) => (await store.transaction((tx) => tx.conversations.insert(conversationRecord(botId, userId, { channel, createdAt }))))!,
    close,
  };
}

const broadcast = (id: string, botId: string, over: Partial<BroadcastRecord> = {}): BroadcastRecord => ({
  id,
  botId,
  name: `Broadcast ${id}`,
  status: 'scheduled',
  at: 1000,
  nextRunAt: 1000,
  run: 0,
  claimedUntil: 0,
  claimedBy: null,
  error: null,
  createdAt: 1,
  updatedAt: 1,
  spec: { Behaviour: 'Promo', Audience: {}, Repeat: null, UserTimeZone: false, Variables: {}, Template: null, AtOffsetMinutes: 0 },
  ...over,
});

for (const kind of ['memory', ...databaseKinds()] as const) {
  describe(`broadcast storage port (${kind})`, () => {
    let s: Subject;
    beforeEach(async () => (s = await open(kind)));
    afterEach(() => s.close());

    const insert = (b: BroadcastRecord, max = 2) => s.storage.transaction((tx) => tx.broadcasts.insertWithin(b, max));

    test('a bot holds at most `max` active broadcasts; a finished one frees its place; reads are per bot, newest first', async () => {
      assert.equal(await insert(broadcast('b1', s.bots[0], { createdAt: 1 })), true);
      assert.equal(await insert(broadcast('b2', s.bots[0], { createdAt: 2 })), true);
      assert.equal(await insert(broadcast('b3', s.bots[0], { createdAt: 3 })), false);
      assert.equal(await insert(broadcast('other', s.bots[1])), true, "another bot's cap is its own");
      assert.equal(await s.storage.broadcasts.update('b1', null, { status: 'done', nextRunAt: null }, 50), true);
      assert.equal(await s.storage.broadcasts.update('b1', null, { status: 'cancelled' }, 60), false, 'a finished broadcast changes no more');
      assert.equal(await insert(broadcast('b3', s.bots[0], { createdAt: 3 })), true);
      assert.deepEqual(
        (await s.storage.broadcasts.byBot(s.bots[0], 10)).map((b) => [b.id, b.status, b.nextRunAt]),
        [
          ['b3', 'scheduled', 1000],
          ['b2', 'scheduled', 1000],
          ['b1', 'done', null],
        ],
      );
      assert.equal(await s.storage.broadcasts.byId(s.bots[1], 'b1'), null);
      await assert.rejects(
        s.storage.transaction(async (tx) => {
          await tx.broadcasts.insertWithin(broadcast('ghost', s.bots[1]), 5);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await s.storage.broadcasts.byId(s.bots[1], 'ghost'), null, 'a transaction that throws leaves nothing');
    });

    test('a due broadcast is leased by one node, renewed by its holder, changed only under the lease, freed on release', async () => {
      await insert(broadcast('b1', s.bots[0], { nextRunAt: 1000 }));
      await insert(broadcast('later', s.bots[0], { nextRunAt: 5000 }));
      assert.deepEqual(
        (await s.storage.broadcasts.lease('n1', 2000, 3000, 10)).map((b) => [b.id, b.claimedBy, b.claimedUntil]),
        [['b1', 'n1', 3000]],
      );
      assert.deepEqual(await s.storage.broadcasts.lease('n2', 2500, 3500, 10), []);
      assert.deepEqual(
        (await s.storage.broadcasts.lease('n1', 2500, 4000, 10)).map((b) => [b.id, b.claimedUntil]),
        [['b1', 4000]],
      );
      assert.equal(await s.storage.broadcasts.update('b1', 'n2', { status: 'running', run: 1 }, 2600), false);
      assert.equal(await s.storage.broadcasts.update('b1', 'n1', { status: 'running', run: 1, error: null }, 2600), true);
      assert.deepEqual(await s.storage.broadcasts.byId(s.bots[0], 'b1').then((b) => [b?.status, b?.run, b?.updatedAt]), ['running', 1, 2600]);
      await s.storage.broadcasts.release('n1');
      assert.deepEqual(
        (await s.storage.broadcasts.lease('n2', 2700, 5000, 10)).map((b) => [b.id, b.claimedBy]),
        [['b1', 'n2']],
        'running: leased again once free',
      );
    });

    test('recipients are claimed once per attempt, decided once under their claim, and counted with reasons', async () => {
      await insert(broadcast('b1', s.bots[0]));
      const ann = await s.conversation(s.bots[0], 'ann', 'web', 100);
      const bob = await s.conversation(s.bots[0], 'bob', 'web', 100);
      const cy = await s.conversation(s.bots[0], 'cy', 'telegram', 100);
      await s.storage.transaction((tx) =>
        tx.broadcasts.addRecipients(
          'b1',
          1,
          [ann, bob, cy].map((id, i) => ({ conversationId: id, channel: i < 2 ? 'web' : 'telegram', dueAt: 0 })),
        ),
      );
      await s.storage.transaction((tx) => tx.broadcasts.addRecipients('b1', 1, [{ conversationId: ann, channel: 'web', dueAt: 0 }]));
      const claimed = await s.storage.broadcasts.claimRecipients('b1', 1, 'web', 10, 100, 10);
      assert.deepEqual(
        claimed,
        [ann, bob].map((id, i) => ({ broadcastId: 'b1', run: 1, conversationId: id, userId: ['ann', 'bob'][i], channel: 'web', claimedUntil: 100 })),
      );
      assert.deepEqual(await s.storage.broadcasts.claimRecipients('b1', 1, 'web', 20, 200, 10), [], 'claimed already');
      const annKey = { broadcastId: 'b1', run: 1, conversationId: ann, claimedUntil: 100 };
      assert.equal(await s.storage.broadcasts.markUnsent({ ...annKey, claimedUntil: 99 }, 'failed', 'blocked'), false, 'not under its claim');
      assert.equal(await s.storage.broadcasts.markUnsent(annKey, 'failed', 'blocked'), true);
      assert.equal(await s.storage.broadcasts.markUnsent(annKey, 'skipped', 'again'), false, 'decided once');
      assert.equal(await s.storage.broadcasts.skipPending('b1', 'cancelled'), 2);
      assert.deepEqual(await s.storage.broadcasts.counts('b1', 1), { Audience: 3, Pending: 0, Sent: 0, Delivered: 0, Failed: 1, Skipped: 2, Clicked: 0, Reasons: { blocked: 1, cancelled: 2 } });
      assert.deepEqual(await s.storage.broadcasts.counts('b1', 2), { Audience: 0, Pending: 0, Sent: 0, Delivered: 0, Failed: 0, Skipped: 0, Clicked: 0, Reasons: {} });
    });

    test("an audience's candidates: the bot's conversations after an id, in id order, only the users named", async () => {
      const ann = await s.conversation(s.bots[0], 'ann', 'web', 100);
      const bob = await s.conversation(s.bots[0], 'bob', 'telegram', 200);
      await s.conversation(s.bots[1], 'zed', 'web', 300);
      const read = async (...a: [number, number, string[]?]) =>
        (await s.storage.broadcasts.candidates(s.bots[0], ...a)).map((c) => [c.conversationId, c.userId, c.channel, c.lastUserAt, c.controlState, c.forgetting]);
      assert.deepEqual(await read(0, 10), [
        [ann, 'ann', 'web', 100, 0, false],
        [bob, 'bob', 'telegram', 200, 0, false],
      ]);
      assert.deepEqual(await read(ann, 10), [[bob, 'bob', 'telegram', 200, 0, false]]);
      assert.deepEqual(await read(0, 1), [[ann, 'ann', 'web', 100, 0, false]]);
      assert.deepEqual(await read(0, 10, ['bob', 'zed']), [[bob, 'bob', 'telegram', 200, 0, false]]);
    });

    test('webhook notices: due ones in due order, one attempt per claim, a newer body replaces one not delivered', async () => {
      await insert(broadcast('b1', s.bots[0]));
      await insert(broadcast('b2', s.bots[0]));
      await s.storage.broadcasts.setNotice('b1', 'one', 100);
      await s.storage.broadcasts.setNotice('b2', 'two', 50);
      const due = async (now: number) => (await s.storage.broadcasts.dueNotices(now, 10)).map((n) => [n.id, n.body, n.attempts, n.due]);
      assert.deepEqual(await due(100), [
        ['b2', 'two', 0, 50],
        ['b1', 'one', 0, 100],
      ]);
      assert.equal(await s.storage.broadcasts.claimNotice('b1', 'one', 100, 400), true);
      assert.equal(await s.storage.broadcasts.claimNotice('b1', 'one', 100, 400), false, 'claimed already');
      assert.deepEqual(await due(200), [['b2', 'two', 0, 50]]);
      await s.storage.broadcasts.retryNotice('b1', 'one', 150);
      assert.deepEqual(await due(200), [
        ['b2', 'two', 0, 50],
        ['b1', 'one', 1, 150],
      ]);
      await s.storage.broadcasts.setNotice('b1', 'one, newer', 160);
      await s.storage.broadcasts.noticeDone('b1', 'one');
      assert.deepEqual(
        await due(200),
        [
          ['b2', 'two', 0, 50],
          ['b1', 'one, newer', 0, 160],
        ],
        'the older attempt ending does not drop the newer body',
      );
      await s.storage.broadcasts.noticeDone('b1', 'one, newer');
      assert.deepEqual(await due(200), [['b2', 'two', 0, 50]]);
    });
  });
}
