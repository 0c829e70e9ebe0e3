import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { accountRecord, storedAccount, storePerTest } from './store-fixtures.js';

const ZERO = { messages: 0, replies: 0, notifications: 0, apiCalls: 0, aiTokens: 0 };

for (const kind of databaseKinds()) {
  describe(`store accounts (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('insert, then byId and byApiKey return the same record (without the key); unknown ids give null', async () => {
      const account = accountRecord({ plan: 'free', packages: ['PACKAGE_WHITELABEL', 'PACKAGE_EXTRA'] });
      await ctx.store.accounts.insert(account);
      assert.deepEqual(await ctx.store.accounts.byId(account.id), storedAccount(account));
      assert.deepEqual(await ctx.store.accounts.byApiKey(account.apiKey), storedAccount(account));
      assert.equal(await ctx.store.accounts.byId('no-such-account'), null);
      assert.equal(await ctx.store.accounts.byApiKey('no-such-key'), null);
      // The key is matched exactly, not as a pattern or case-insensitively.
      assert.equal(await ctx.store.accounts.byApiKey(account.apiKey.toUpperCase()), null);
      assert.equal(await ctx.store.accounts.byApiKey('%'), null);
    });

    test('two accounts cannot share an API key or an id', async () => {
      const first = accountRecord();
      await ctx.store.accounts.insert(first);
      await assert.rejects(ctx.store.accounts.insert(accountRecord({ apiKey: first.apiKey })));
      await assert.rejects(ctx.store.accounts.insert(accountRecord({ id: first.id })));
      assert.equal(await ctx.store.accounts.count(), 1);
    });

    test('update writes name, plan and packages; the key and creation time stay', async () => {
      const account = accountRecord({ plan: 'free', packages: [] });
      const other = accountRecord();
      await ctx.store.accounts.insert(account);
      await ctx.store.accounts.insert(other);
      await ctx.store.accounts.update({
        ...storedAccount(account),
        name: 'Renamed',
        plan: 'standard',
        packages: ['PACKAGE_WHITELABEL'],
        keyVersion: 7,
        createdAt: 1,
      });
      assert.deepEqual(await ctx.store.accounts.byId(account.id), {
        ...storedAccount(account),
        name: 'Renamed',
        plan: 'standard',
        packages: ['PACKAGE_WHITELABEL'],
      });
      assert.deepEqual(await ctx.store.accounts.byApiKey(account.apiKey), await ctx.store.accounts.byId(account.id));
      assert.deepEqual(await ctx.store.accounts.byId(other.id), storedAccount(other));
    });

    test('rotateKey: the new key finds the account, the old one no longer does; the key version moves on', async () => {
      const account = accountRecord();
      await ctx.store.accounts.insert(account);
      assert.equal(await ctx.store.accounts.rotateKey(account.id, 'fresh-key'), true);
      assert.equal(await ctx.store.accounts.byApiKey(account.apiKey), null);
      assert.deepEqual(await ctx.store.accounts.byApiKey('fresh-key'), { ...storedAccount(account), keyVersion: 2 });
      assert.equal(await ctx.store.accounts.rotateKey('no-such-account', 'other-key'), false);
    });

    test('count follows inserts', async () => {
      assert.equal(await ctx.store.accounts.count(), 0);
      for (let i = 0; i < 3; i++) await ctx.store.accounts.insert(accountRecord());
      const count = await ctx.store.accounts.count();
      assert.equal(count, 3);
      assert.equal(typeof count, 'number');
    });

    test('usage of a month with nothing recorded is zeros', async () => {
      const account = accountRecord();
      await ctx.store.accounts.insert(account);
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-05'), { month: '2024-05', ...ZERO });
      assert.deepEqual(await ctx.store.accounts.usage('no-such-account', '2024-05'), { month: '2024-05', ...ZERO });
    });

    test('addUsage accumulates within a month and keeps months and accounts apart', async () => {
      const account = accountRecord();
      const other = accountRecord();
      await ctx.store.accounts.insert(account);
      await ctx.store.accounts.insert(other);
      await ctx.store.accounts.addUsage(account.id, '2024-05', { messages: 1, replies: 2, notifications: 3, apiCalls: 4, aiTokens: 5 });
      await ctx.store.accounts.addUsage(account.id, '2024-05', { messages: 10, replies: 20, notifications: 30, apiCalls: 40, aiTokens: 7 });
      await ctx.store.accounts.addUsage(account.id, '2024-06', { messages: 5, replies: 0, notifications: 0, apiCalls: 7 });
      await ctx.store.accounts.addUsage(other.id, '2024-05', { messages: 100, replies: 100, notifications: 100, apiCalls: 100 });
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-05'), {
        month: '2024-05',
        messages: 11,
        replies: 22,
        notifications: 33,
        apiCalls: 44,
        aiTokens: 12,
      });
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-06'), {
        month: '2024-06',
        messages: 5,
        replies: 0,
        notifications: 0,
        apiCalls: 7,
        aiTokens: 0,
      });
      assert.deepEqual(await ctx.store.accounts.usage(account.id, '2024-04'), { month: '2024-04', ...ZERO });
      assert.deepEqual(await ctx.store.accounts.usage(other.id, '2024-05'), {
        month: '2024-05',
        messages: 100,
        replies: 100,
        notifications: 100,
        apiCalls: 100,
        aiTokens: 0,
      });
    });

    test('usage counters are 64-bit: totals past 2^32 come back exactly, as numbers', async () => {
      const account = accountRecord();
      await ctx.store.accounts.insert(account);
      const big = 2 ** 40 + 3;
      await ctx.store.accounts.addUsage(account.id, '2024-05', { messages: big, replies: 1, notifications: 0, apiCalls: 0 });
      await ctx.store.accounts.addUsage(account.id, '2024-05', { messages: big, replies: 1, notifications: 0, apiCalls: 0 });
      const usage = await ctx.store.accounts.usage(account.id, '2024-05');
      assert.equal(usage.messages, 2 * big);
      assert.equal(typeof usage.messages, 'number');
      assert.equal(usage.replies, 2);
    });

    test('operators: one per e-mail and account, found by e-mail', async () => {
      const account = accountRecord();
      const other = accountRecord();
      await ctx.store.accounts.insert(account);
      await ctx.store.accounts.insert(other);
      const operator = {
        id: 'op-1',
        accountId: account.id,
        email: 'ana@example.com',
        name: 'Ana',
        passwordHash: 'hash-1',
        role: 'designer' as const,
        createdAt: 1_700_000_000_500,
      };
      assert.equal(await ctx.store.operators.insert(operator), true);
      assert.equal(await ctx.store.operators.insert({ ...operator, id: 'op-2', name: 'Impostor' }), false);
      assert.equal(await ctx.store.operators.insert({ ...operator, id: 'op-3', accountId: other.id }), true);
      assert.deepEqual(await ctx.store.operators.byEmail(account.id, 'ana@example.com'), operator);
      assert.deepEqual(await ctx.store.operators.byEmail(other.id, 'ana@example.com'), { ...operator, id: 'op-3', accountId: other.id });
      assert.equal(await ctx.store.operators.byEmail(account.id, 'bob@example.com'), null);
    });
  });
}
