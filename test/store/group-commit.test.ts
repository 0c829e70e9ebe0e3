// Transactions that arrive together: on SQLite they commit as one group (sqlite-group-commit.ts),
// on PostgreSQL each on its own connection. Either way each is answered only once its writes are
// committed, and one that fails takes nothing of the others with it — down to whole chat turns.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConversationTurns } from '../../src/conversations/turns.js';
import { InProcessEventBus } from '../../src/conversations/events.js';
import { systemClock } from '../../src/shared/clock.js';
import { databaseKinds } from '../support/databases.js';
import { accountRecord, conversationRecord, part, seedBot, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`transactions arriving together (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('one that throws rolls back alone; the others commit and return their values', async () => {
      const accounts = [accountRecord(), accountRecord(), accountRecord(), accountRecord()];
      const boom = new Error('boom');
      const results = await Promise.allSettled(
        accounts.map((account, i) =>
          ctx.store.transaction(async (tx) => {
            await tx.accounts.insert(account);
            await tx.meta.set(`written-by-${i}`, account.id);
            if (i === 1) throw boom;
            return i;
          }),
        ),
      );
      assert.deepEqual(results, [
        { status: 'fulfilled', value: 0 },
        { status: 'rejected', reason: boom },
        { status: 'fulfilled', value: 2 },
        { status: 'fulfilled', value: 3 },
      ]);
      assert.equal(await ctx.store.accounts.count(), 3);
      assert.equal(await ctx.store.accounts.byId(accounts[1].id), null);
      assert.equal(await ctx.store.meta.get('written-by-1'), null);
      for (const i of [0, 2, 3]) assert.equal(await ctx.store.meta.get(`written-by-${i}`), accounts[i].id);
    });

    test('a failing statement (a duplicate key) in one leaves the others and the store working', async () => {
      const taken = accountRecord();
      await ctx.store.accounts.insert(taken);
      const fresh = [accountRecord(), accountRecord()];
      const results = await Promise.allSettled([
        ctx.store.transaction((tx) => tx.accounts.insert(fresh[0])),
        ctx.store.transaction(async (tx) => {
          await tx.meta.set('half', 'written');
          await tx.accounts.insert({ ...accountRecord(), id: taken.id });
        }),
        ctx.store.transaction((tx) => tx.accounts.insert(fresh[1])),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.equal(await ctx.store.meta.get('half'), null);
      assert.equal(await ctx.store.accounts.count(), 3);
      await ctx.store.transaction((tx) => tx.meta.set('after', 'ok'));
      assert.equal(await ctx.store.meta.get('after'), 'ok');
    });

    if (kind === 'sqlite') {
      test('SQLite: they share one COMMIT, and none is answered before it, nor visible to readers', async () => {
        const order: string[] = [];
        const seen = await new Promise<string | null>((resolve, reject) => {
          const first = ctx.store.transaction(async (tx) => {
            await tx.meta.set('first', 'written');
            order.push('first work');
          });
          void first.then(() => order.push('first answered'), reject);
          const second = ctx.store.transaction(async () => {
            order.push('second work');
            // The first one's work is done, but its group has not committed: a reader does not see it.
            return ctx.store.meta.get('first');
          });
          void second.then((value) => {
            order.push('second answered');
            resolve(value);
          }, reject);
        });
        assert.equal(seen, null);
        assert.deepEqual(order, ['first work', 'second work', 'first answered', 'second answered']);
        assert.equal(await ctx.store.meta.get('first'), 'written');
      });
    }

    test('chat turns committing together: the one whose commit throws fails alone', async () => {
      const { bot } = await seedBot(ctx.store);
      const turns = new ConversationTurns(ctx.store, systemClock, new InProcessEventBus());
      const users = ['ann', 'bob', 'cid', 'dan'];
      for (const user of users) await ctx.store.conversations.insert(conversationRecord(bot.id, user));
      const boom = new Error('share write failed');
      const results = await Promise.allSettled(
        users.map((user) =>
          turns.run(bot, user, async (current) => ({
            save: { ...current!, operator: `seen-${user}` },
            messages: [{ direction: 'USER' as const, parts: [part(`hello from ${user}`)], pushed: false }],
            usage: { messages: 1, replies: 0, notifications: 0, apiCalls: 0 },
            alsoWrite: async () => {
              if (user === 'bob') throw boom;
            },
            reply: user,
          })),
        ),
      );
      assert.deepEqual(results, [
        { status: 'fulfilled', value: 'ann' },
        { status: 'rejected', reason: boom },
        { status: 'fulfilled', value: 'cid' },
        { status: 'fulfilled', value: 'dan' },
      ]);
      for (const user of users) {
        const stored = (await ctx.store.conversations.byUser(bot.id, user))!;
        const history = await ctx.store.conversations.historyParts(stored.id);
        if (user === 'bob') {
          assert.equal(stored.operator, null);
          assert.equal(stored.revision, 0);
          assert.deepEqual(history, []);
        } else {
          assert.equal(stored.operator, `seen-${user}`);
          assert.equal(stored.revision, 1);
          assert.deepEqual(history, [part(`hello from ${user}`)]);
        }
      }
      const month = systemClock.iso().slice(0, 7);
      assert.equal((await ctx.store.accounts.usage(bot.accountId, month)).messages, 3);
    });
  });
}
