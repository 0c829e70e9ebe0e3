// What goes in comes out unchanged on both databases: awkward text, large JSON, 64-bit times.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { accountRecord, botRecord, conversationRecord, openRaw, part, seedBot, storedAccount, storePerTest } from './store-fixtures.js';
import type { BotContent } from '../../src/bots/model.js';

/** Quotes, SQL and placeholder look-alikes, several scripts, emoji sequences, combining marks. */
const TRICKY = `O'Brien said "hi" \\ back\\slash; DROP TABLE accounts; -- $1 $2 @p1 ? %_ 日本語 Ελληνικά עברית العربية 🤖👩‍👩‍👧 é \u2028 tab\tnewline\n`;
/** JSON.stringify escapes these (NUL and lone surrogates too, which become U+FFFD: below). */
const JSON_ONLY = 'controls \u0001 \u001f \b \u007f';

function bigContent(label: string): BotContent {
  return {
    variables: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`var_${i}`, `${TRICKY}${i}`])),
    triggers: [{ match: { regex: '^(help|hilfe|助けて)$' }, variable: 'intent', actions: [{ type: 'goto', behaviour: 'Main' }] }],
    behaviours: [
      {
        name: `Main ${label}`,
        start: true,
        interactions: Array.from({ length: 400 }, (_, i) => ({
          name: `Step ${i}`,
          description: JSON_ONLY,
          actions: [{ type: 'text', texts: [`${label} line ${i}: ${TRICKY}`, 'x'.repeat(100)], nested: { deep: [1, 2.5, null, true] } }],
        })),
      },
    ],
  };
}

const MAX = Number.MAX_SAFE_INTEGER;

for (const kind of databaseKinds()) {
  describe(`store round trips (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('text with unicode, quotes and SQL look-alikes comes back unchanged in every text column', async () => {
      const account = accountRecord({ id: `acc ${TRICKY}`, name: TRICKY, apiKey: `key ${TRICKY}`, packages: [TRICKY, JSON_ONLY] });
      await ctx.store.accounts.insert(account);
      assert.deepEqual(await ctx.store.accounts.byApiKey(account.apiKey), storedAccount(account));
      assert.deepEqual(await ctx.store.accounts.byId(account.id), storedAccount(account));

      const bot = botRecord(account.id, {
        id: `bot ${TRICKY}`,
        name: TRICKY,
        description: TRICKY.repeat(3),
        avatar: `https://example.com/${encodeURIComponent(TRICKY)}`,
        apiSecret: TRICKY,
        settings: { channels: { custom: { webhookUrl: `https://example.com/?q=${TRICKY}` }, odd: JSON_ONLY } },
      });
      await ctx.store.bots.insert(bot, bigContent('draft'));
      assert.deepEqual(await ctx.store.bots.byApiKey(bot.apiKey), bot);

      const conversation = conversationRecord(bot.id, TRICKY, {
        channel: TRICKY,
        operator: TRICKY,
        banMessage: TRICKY,
        state: { v: 1, position: null, previous: null, bookmark: null, variables: { [TRICKY]: JSON_ONLY }, tags: [TRICKY], privacy: {}, waiting: null },
      });
      const id = (await ctx.store.conversations.insert(conversation))!;
      assert.deepEqual(await ctx.store.conversations.byUser(bot.id, TRICKY), { ...conversation, id });
      const parts = [part(TRICKY), part(JSON_ONLY, [part(TRICKY)])];
      await ctx.store.conversations.appendMessages(id, [{ direction: 'BOT', parts, pending: true }], 1);
      assert.deepEqual(await ctx.store.conversations.historyParts(id), parts);
      assert.deepEqual(await ctx.store.conversations.takePending(id), parts);

      await ctx.store.meta.set(TRICKY, TRICKY);
      assert.equal(await ctx.store.meta.get(TRICKY), TRICKY);
      const operator = { id: TRICKY, accountId: account.id, email: `${TRICKY}@example.com`, name: TRICKY, passwordHash: TRICKY, role: 'admin' as const, createdAt: 1 };
      assert.equal(await ctx.store.operators.insert(operator), true);
      assert.deepEqual(await ctx.store.operators.byEmail(account.id, operator.email), operator);
    });

    test('100 KB JSON drafts and versions come back deep-equal', async () => {
      const { bot } = await seedBot(ctx.store);
      const first = bigContent('first');
      const second = bigContent('second');
      assert.ok(JSON.stringify(first).length > 100_000, `draft is ${JSON.stringify(first).length} characters`);
      assert.equal(await ctx.store.bots.update({ ...bot, version: 2 }, 1, first), true);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), first);
      const versionId = await ctx.store.bots.insertVersion(bot.id, 2, first, 5, null);
      assert.equal(await ctx.store.bots.update({ ...bot, version: 3 }, 2, second), true);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), second);
      assert.deepEqual((await ctx.store.bots.versionById(versionId))!.content, first);
      assert.deepEqual((await ctx.store.bots.versionByNumber(bot.id, 2))!.content, first);

      const account = accountRecord();
      await ctx.store.accounts.insert(account);
      const other = botRecord(account.id);
      await ctx.store.bots.insert(other, second);
      assert.deepEqual(await ctx.store.bots.draft(other.id), second);
    });

    test('64-bit times and ids come back exactly, as JS numbers, in records and raw rows', async () => {
      const account = accountRecord({ createdAt: MAX });
      await ctx.store.accounts.insert(account);
      const bot = botRecord(account.id, { createdAt: MAX - 1, updatedAt: MAX, liveVersionId: 2 ** 53 - 7 });
      await ctx.store.bots.insert(bot, { variables: {}, triggers: [], behaviours: [] });
      const versionId = await ctx.store.bots.insertVersion(bot.id, 1, { variables: {}, triggers: [], behaviours: [] }, MAX, null);
      const conv = conversationRecord(bot.id, 'u', { createdAt: 1_700_000_000_123, updatedAt: MAX });
      const convId = (await ctx.store.conversations.insert(conv))!;
      await ctx.store.conversations.appendMessages(convId, [{ direction: 'USER', parts: [part('t')], pending: false }], MAX);

      assert.deepEqual(await ctx.store.accounts.byId(account.id), storedAccount(account));
      assert.deepEqual(await ctx.store.bots.byId(bot.id), bot);
      assert.equal((await ctx.store.bots.versionById(versionId))!.publishedAt, MAX);
      assert.deepEqual(await ctx.store.conversations.byId(convId), { ...conv, id: convId });
      assert.equal(typeof versionId, 'number');
      assert.equal(typeof convId, 'number');

      // Below the records: the drivers themselves hand out numbers (PostgreSQL's int8 parser).
      const raw = await openRaw(ctx.db);
      try {
        const a = await raw.get<Record<string, unknown>>('SELECT created_at FROM accounts WHERE id = $1', [account.id]);
        assert.deepEqual(a, { created_at: MAX });
        const b = await raw.get<Record<string, unknown>>('SELECT created_at, updated_at, live_version_id FROM bots WHERE id = $1', [bot.id]);
        assert.deepEqual(b, { created_at: MAX - 1, updated_at: MAX, live_version_id: 2 ** 53 - 7 });
        const m = await raw.get<Record<string, unknown>>('SELECT id, conversation_id, created_at FROM messages WHERE conversation_id = $1', [convId]);
        assert.equal(typeof m!.id, 'number');
        assert.deepEqual({ ...m, id: 0 }, { id: 0, conversation_id: convId, created_at: MAX });
        const n = await raw.get<Record<string, unknown>>('SELECT COUNT(*) AS n FROM accounts');
        assert.deepEqual(n, { n: 1 });
      } finally {
        await raw.close();
      }
    });

    test('NUL and lone surrogates become U+FFFD in JSON columns and message parts alike', async () => {
      const { bot } = await seedBot(ctx.store);
      const odd = 'nul \u0000 lone \ud800 surrogate';
      const stored = 'nul \ufffd lone \ufffd surrogate';
      const state = (text: string) => ({ v: 1, position: null, previous: null, bookmark: null, variables: { [text]: text }, tags: [text], privacy: {}, waiting: null });
      const conversation = conversationRecord(bot.id, 'odd', { state: state(odd) as any });
      const id = (await ctx.store.conversations.insert(conversation))!;
      assert.deepEqual((await ctx.store.conversations.byUser(bot.id, 'odd'))!.state, state(stored));
      await ctx.store.conversations.appendMessages(id, [{ direction: 'BOT', parts: [part(odd, [part(odd)])], pending: false }], 1);
      assert.deepEqual(await ctx.store.conversations.historyParts(id), [part(stored, [part(stored)])]);
    });

    // PostgreSQL cannot store a NUL character in a TEXT value: both drivers store U+FFFD instead
    // (docs/decisions.md "Storage"; the HTTP layer answers 400 before a request's own NUL gets here).
    test('a NUL character in a plain text column is stored as U+FFFD alike on both databases', async () => {
      const account = accountRecord({ name: 'before\u0000after\ud800' });
      await ctx.store.accounts.insert(account);
      assert.equal((await ctx.store.accounts.byId(account.id))?.name, 'before\ufffdafter\ufffd');
    });
  });
}
