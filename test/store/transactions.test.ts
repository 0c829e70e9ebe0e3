import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { accountRecord, botContent, botRecord, conversationRecord, part, seedBot, storedAccount, storePerTest } from './store-fixtures.js';

const ZERO = { messages: 0, replies: 0, notifications: 0, apiCalls: 0, aiTokens: 0 };
const ONE_MESSAGE = { messages: 1, replies: 0, notifications: 0, apiCalls: 0, aiTokens: 0 };

for (const kind of databaseKinds()) {
  describe(`store transactions (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('a transaction returns what its work returns and commits its writes', async () => {
      const account = accountRecord();
      const result = await ctx.store.transaction(async (tx) => {
        await tx.accounts.insert(account);
        await tx.meta.set('k', 'v');
        // Reads inside the transaction see its own writes.
        assert.deepEqual(await tx.accounts.byId(account.id), storedAccount(account));
        return { answer: 42 };
      });
      assert.deepEqual(result, { answer: 42 });
      assert.deepEqual(await ctx.store.accounts.byId(account.id), storedAccount(account));
      assert.equal(await ctx.store.meta.get('k'), 'v');
    });

    test('a throw inside the transaction rolls back every write it made', async () => {
      const { account, bot } = await seedBot(ctx.store);
      const draft = await ctx.store.bots.draft(bot.id);
      const convId = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      await ctx.store.conversations.appendMessages(convId, [{ direction: 'BOT', parts: [part('queued')], pending: true }], 1);
      await ctx.store.accounts.addUsage(account.id, '2024-05', ONE_MESSAGE);
      await ctx.store.meta.set('setting', 'before');
      const conversationBefore = await ctx.store.conversations.byId(convId);
      const newAccount = accountRecord();
      const newBot = botRecord(account.id);

      const boom = new Error('boom');
      await assert.rejects(
        ctx.store.transaction(async (tx) => {
          await tx.accounts.insert(newAccount);
          await tx.accounts.update({ ...account, name: 'changed' });
          await tx.accounts.addUsage(account.id, '2024-05', { messages: 5, replies: 5, notifications: 5, apiCalls: 5 });
          await tx.accounts.addUsage(account.id, '2024-06', ONE_MESSAGE);
          await tx.bots.insert(newBot, botContent('new'));
          assert.equal(await tx.bots.update({ ...bot, name: 'changed', version: 2 }, 1, botContent('changed')), true);
          await tx.bots.insertVersion(bot.id, 1, botContent('v1'), 1000, null);
          const c = (await tx.conversations.byId(convId))!;
          assert.equal(await tx.conversations.save({ ...c, controlState: 3 }), true);
          await tx.conversations.appendMessages(convId, [{ direction: 'USER', parts: [part('rolled back')], pending: false }], 2);
          assert.deepEqual(await tx.conversations.takePending(convId), [part('queued')]);
          await tx.conversations.insert(conversationRecord(bot.id, 'user-2'));
          await tx.meta.set('setting', 'after');
          await tx.meta.set('new-key', 'x');
          throw boom;
        }),
        (error) => error === boom,
      );

      assert.equal(await ctx.store.accounts.byId(newAccount.id), null);
      assert.equal(await ctx.store.accounts.count(), 1);
      assert.deepEqual(await ctx.store.accounts.byId(account.id), storedAccount(account));
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-05'), { month: '2024-05', ...ONE_MESSAGE });
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-06'), { month: '2024-06', ...ZERO });
      assert.equal(await ctx.store.bots.byId(newBot.id), null);
      assert.deepEqual(await ctx.store.bots.byId(bot.id), bot);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), draft);
      assert.deepEqual(await ctx.store.bots.versions(bot.id), []);
      assert.deepEqual(await ctx.store.conversations.byId(convId), conversationBefore);
      assert.equal(await ctx.store.conversations.byUser(bot.id, 'user-2'), null);
      assert.deepEqual(await ctx.store.conversations.historyParts(convId), [part('queued')]);
      assert.deepEqual(await ctx.store.meta.get('setting'), 'before');
      assert.equal(await ctx.store.meta.get('new-key'), null);
      // The message that the rolled-back poll took is still queued.
      assert.deepEqual(await ctx.store.conversations.takePending(convId), [part('queued')]);
    });

    test('a failing statement rolls back the earlier writes, and the store keeps working', async () => {
      const existing = accountRecord();
      await ctx.store.accounts.insert(existing);
      const fresh = accountRecord();
      await assert.rejects(
        ctx.store.transaction(async (tx) => {
          await tx.accounts.insert(fresh);
          await tx.accounts.insert(accountRecord({ apiKey: existing.apiKey })); // unique violation
        }),
      );
      assert.equal(await ctx.store.accounts.byId(fresh.id), null);
      assert.equal(await ctx.store.accounts.count(), 1);
      // Neither the connection nor the lock was left behind: many more transactions still commit.
      for (let i = 0; i < 15; i++) {
        await assert.rejects(
          ctx.store.transaction(async () => Promise.reject(new Error(`fail ${i}`))),
          { message: `fail ${i}` },
        );
      }
      await ctx.store.transaction((tx) => tx.accounts.insert(fresh));
      assert.deepEqual(await ctx.store.accounts.byId(fresh.id), storedAccount(fresh));
    });

    test('writes made outside a transaction while it is open survive its rollback; its writes are never seen', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let opened!: () => void;
      const isOpen = new Promise<void>((resolve) => (opened = resolve));
      const failing = ctx.store.transaction(async (tx) => {
        await tx.meta.set('inside', 'uncommitted');
        opened();
        await gate;
        throw new Error('rolled back');
      });
      await isOpen;
      const outsideWrite = ctx.store.meta.set('outside', 'committed');
      const outsideRead = ctx.store.meta.get('inside');
      await sleep(30);
      release();
      await assert.rejects(failing, { message: 'rolled back' });
      await outsideWrite;
      assert.equal(await outsideRead, null);
      assert.equal(await ctx.store.meta.get('inside'), null);
      assert.equal(await ctx.store.meta.get('outside'), 'committed');
    });

    test('50 concurrent transactions adding to one usage counter lose no increment', async () => {
      const { account } = await seedBot(ctx.store);
      await Promise.all(Array.from({ length: 50 }, () => ctx.store.transaction((tx) => tx.accounts.addUsage(account.id, '2024-07', ONE_MESSAGE))));
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-07'), { month: '2024-07', ...ONE_MESSAGE, messages: 50 });
    });

    if (kind === 'sqlite') {
      // One connection serves the whole process, so the driver must keep an open transaction's
      // statements apart from everyone else's: transactions run one after another.
      test('concurrent read-modify-write transactions do not interleave (50 increments end at 50)', async () => {
        await ctx.store.meta.set('counter', '0');
        await Promise.all(
          Array.from({ length: 50 }, () =>
            ctx.store.transaction(async (tx) => {
              const value = Number(await tx.meta.get('counter'));
              await sleep(1); // give any other transaction every chance to run in between
              await tx.meta.set('counter', String(value + 1));
            }),
          ),
        );
        assert.equal(await ctx.store.meta.get('counter'), '50');
      });

      test('each concurrent transaction sees the usage counter its predecessor left (0..49, no repeats)', async () => {
        const { account } = await seedBot(ctx.store);
        const seen = await Promise.all(
          Array.from({ length: 50 }, () =>
            ctx.store.transaction(async (tx) => {
              const before = (await tx.accounts.usage(account.id, '2024-08')).messages;
              await new Promise((resolve) => setImmediate(resolve));
              await tx.accounts.addUsage(account.id, '2024-08', ONE_MESSAGE);
              assert.equal((await tx.accounts.usage(account.id, '2024-08')).messages, before + 1);
              return before;
            }),
          ),
        );
        assert.deepEqual(
          [...seen].sort((a, b) => a - b),
          Array.from({ length: 50 }, (_, i) => i),
        );
        assert.equal((await ctx.store.accounts.usage(account.id, '2024-08')).messages, 50);
      });
    }
  });
}
