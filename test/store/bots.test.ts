import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { VERSIONS_KEPT } from '../../src/bots/model.js';
import { databaseKinds } from '../support/databases.js';
import { accountRecord, botContent, botRecord, conversationRecord, part, seedBot, storePerTest } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store bots (${kind})`, () => {
    const ctx = storePerTest(kind);

    test('insert with a draft; byId, byApiKey and draft() read it back; unknown ids give null', async () => {
      const account = accountRecord();
      await ctx.store.accounts.insert(account);
      const bot = botRecord(account.id, { secretVersion: 3, avatar: 'https://example.com/a.png', settings: { wordsPerMinute: 180 } });
      const draft = botContent('first draft');
      await ctx.store.bots.insert(bot, draft);
      assert.deepEqual(await ctx.store.bots.byId(bot.id), bot);
      assert.deepEqual(await ctx.store.bots.byApiKey(bot.apiKey), bot);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), draft);
      assert.equal(await ctx.store.bots.byId('no-such-bot'), null);
      assert.equal(await ctx.store.bots.byApiKey('no-such-key'), null);
      assert.equal(await ctx.store.bots.draft('no-such-bot'), null);
    });

    test('a bot needs an existing account, and keys are unique', async () => {
      await assert.rejects(ctx.store.bots.insert(botRecord('no-such-account'), botContent('x')));
      const { account, bot } = await seedBot(ctx.store);
      await assert.rejects(ctx.store.bots.insert(botRecord(account.id, { apiKey: bot.apiKey }), botContent('x')));
      await assert.rejects(ctx.store.bots.insert(botRecord(account.id, { webKey: bot.webKey }), botContent('x')));
      assert.deepEqual(
        (await ctx.store.bots.byAccount(account.id)).map((b) => b.id),
        [bot.id],
      );
    });

    test('byAccount lists only that account, by creation time then id', async () => {
      const account = accountRecord();
      const other = accountRecord();
      await ctx.store.accounts.insert(account);
      await ctx.store.accounts.insert(other);
      const made = [
        botRecord(account.id, { id: 'bot-c', createdAt: 3000 }),
        botRecord(account.id, { id: 'bot-z', createdAt: 1000 }),
        botRecord(other.id, { id: 'bot-o', createdAt: 500 }),
        botRecord(account.id, { id: 'bot-b', createdAt: 2000 }),
        botRecord(account.id, { id: 'bot-a', createdAt: 2000 }),
      ];
      for (const bot of made) await ctx.store.bots.insert(bot, botContent(bot.id));
      const listed = await ctx.store.bots.byAccount(account.id);
      assert.deepEqual(
        listed.map((b) => b.id),
        ['bot-z', 'bot-a', 'bot-b', 'bot-c'],
      );
      assert.deepEqual(listed[1], made[4]);
      assert.deepEqual(
        (await ctx.store.bots.byAccount(other.id)).map((b) => b.id),
        ['bot-o'],
      );
      assert.deepEqual(await ctx.store.bots.byAccount('no-such-account'), []);
    });

    test('clonesOf lists the clones of a master', async () => {
      const { account, bot: master } = await seedBot(ctx.store);
      const clone2 = botRecord(account.id, { role: 'clone', masterBotId: master.id, createdAt: 20 });
      const clone1 = botRecord(account.id, { role: 'clone', masterBotId: master.id, createdAt: 10 });
      await ctx.store.bots.insert(clone2, botContent('c2'));
      await ctx.store.bots.insert(clone1, botContent('c1'));
      assert.deepEqual(await ctx.store.bots.clonesOf(master.id), [clone1, clone2]);
      assert.deepEqual(await ctx.store.bots.clonesOf(clone1.id), []);
    });

    test('update with the current version writes every mutable column; the draft only when given', async () => {
      const { bot } = await seedBot(ctx.store);
      const draft = await ctx.store.bots.draft(bot.id);
      const changed = {
        ...bot,
        apiSecret: 'rotated',
        secretVersion: 2,
        name: 'Renamed',
        description: 'New description',
        avatar: 'https://example.com/b.png',
        settings: { simplifiedAuth: true },
        version: 2,
        liveVersionId: 41,
        role: 'master' as const,
        masterBotId: null,
        updatedAt: bot.updatedAt + 1000,
      };
      assert.equal(await ctx.store.bots.update(changed, 1), true);
      assert.deepEqual(await ctx.store.bots.byId(bot.id), changed);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), draft);

      const newDraft = botContent('second draft');
      const again = { ...changed, version: 3, updatedAt: changed.updatedAt + 1 };
      assert.equal(await ctx.store.bots.update(again, 2, newDraft), true);
      assert.deepEqual(await ctx.store.bots.byId(bot.id), again);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), newDraft);
    });

    test('update with a stale expected version returns false and writes nothing', async () => {
      const { bot } = await seedBot(ctx.store);
      const draft = await ctx.store.bots.draft(bot.id);
      const winner = { ...bot, name: 'Winner', version: 2 };
      assert.equal(await ctx.store.bots.update(winner, 1), true);
      const loser = { ...bot, name: 'Loser', apiSecret: 'lost', version: 2, updatedAt: 9 };
      assert.equal(await ctx.store.bots.update(loser, 1, botContent('lost draft')), false);
      assert.deepEqual(await ctx.store.bots.byId(bot.id), winner);
      assert.deepEqual(await ctx.store.bots.draft(bot.id), draft);
      assert.equal(await ctx.store.bots.update({ ...bot, id: 'no-such-bot' }, 1), false);
    });

    test('two concurrent updates from the same version: exactly one wins', async () => {
      const { bot } = await seedBot(ctx.store);
      for (let round = 1; round <= 10; round++) {
        const results = await Promise.all(['left', 'right'].map((side) => ctx.store.bots.update({ ...bot, name: `${side}-${round}`, version: round + 1 }, round)));
        assert.deepEqual([...results].sort(), [false, true], `round ${round}`);
        const stored = await ctx.store.bots.byId(bot.id);
        assert.equal(stored!.version, round + 1);
        assert.equal(stored!.name, results[0] ? `left-${round}` : `right-${round}`);
      }
    });

    test('versions: insertVersion ids, listing newest first without content, lookups by id and number', async () => {
      const { bot } = await seedBot(ctx.store);
      const { bot: otherBot } = await seedBot(ctx.store);
      const contents = [botContent('v1'), botContent('v2'), botContent('v3')];
      const id2 = await ctx.store.bots.insertVersion(bot.id, 2, contents[1], 2000, null);
      const id1 = await ctx.store.bots.insertVersion(bot.id, 1, contents[0], 1000, null);
      const id3 = await ctx.store.bots.insertVersion(bot.id, 3, contents[2], 3000, null);
      const otherId = await ctx.store.bots.insertVersion(otherBot.id, 1, botContent('other'), 1500, null);
      for (const id of [id1, id2, id3, otherId]) assert.equal(typeof id, 'number');
      assert.equal(new Set([id1, id2, id3, otherId]).size, 4);
      assert.deepEqual(await ctx.store.bots.versions(bot.id), [
        { id: id3, botId: bot.id, version: 3, publishedAt: 3000, publishedBy: null },
        { id: id2, botId: bot.id, version: 2, publishedAt: 2000, publishedBy: null },
        { id: id1, botId: bot.id, version: 1, publishedAt: 1000, publishedBy: null },
      ]);
      assert.deepEqual(await ctx.store.bots.versionById(id2), { id: id2, botId: bot.id, version: 2, content: contents[1], publishedAt: 2000 });
      assert.deepEqual(await ctx.store.bots.versionByNumber(bot.id, 1), { id: id1, botId: bot.id, version: 1, content: contents[0], publishedAt: 1000 });
      assert.deepEqual((await ctx.store.bots.versionByNumber(otherBot.id, 1))!.id, otherId);
      assert.equal(await ctx.store.bots.versionByNumber(bot.id, 4), null);
      assert.equal(await ctx.store.bots.versionByNumber(otherBot.id, 2), null);
      assert.equal(await ctx.store.bots.versionById(otherId + 1000), null);
      assert.deepEqual(await ctx.store.bots.versions('no-such-bot'), []);
    });

    test('remove takes the bot with its versions, conversations and their messages; other bots stay', async () => {
      const { account, bot } = await seedBot(ctx.store);
      const keep = botRecord(account.id);
      await ctx.store.bots.insert(keep, botContent('keep'));
      const goneVersion = await ctx.store.bots.insertVersion(bot.id, 1, botContent('v1'), 1000, null);
      const keptVersion = await ctx.store.bots.insertVersion(keep.id, 1, botContent('k1'), 1000, null);
      const gone = (await ctx.store.conversations.insert(conversationRecord(bot.id, 'user-1')))!;
      const kept = (await ctx.store.conversations.insert(conversationRecord(keep.id, 'user-1')))!;
      await ctx.store.conversations.appendMessages(gone, [{ direction: 'USER', parts: [part('bye')], pending: false }], 1);
      await ctx.store.conversations.appendMessages(kept, [{ direction: 'USER', parts: [part('stay')], pending: true }], 1);

      await ctx.store.bots.remove(bot.id);

      assert.equal(await ctx.store.bots.byId(bot.id), null);
      assert.equal(await ctx.store.bots.draft(bot.id), null);
      assert.equal(await ctx.store.bots.versionById(goneVersion), null);
      assert.deepEqual(await ctx.store.bots.versions(bot.id), []);
      assert.equal(await ctx.store.conversations.byUser(bot.id, 'user-1'), null);
      assert.equal(await ctx.store.conversations.messageCount(gone), 0);

      assert.deepEqual(await ctx.store.bots.byAccount(account.id), [keep]);
      assert.equal((await ctx.store.bots.versionById(keptVersion))!.botId, keep.id);
      assert.equal((await ctx.store.conversations.byUser(keep.id, 'user-1'))!.id, kept);
      assert.deepEqual(await ctx.store.conversations.historyParts(kept), [part('stay')]);
      assert.deepEqual(await ctx.store.conversationsByState(), { bot: 1, requested: 0, operator: 0, banned: 0 });
    });

    test('versions: only the newest two keep their model, and only the newest VERSIONS_KEPT are kept', async () => {
      const { bot } = await seedBot(ctx.store);
      const ids: number[] = [];
      for (let v = 1; v <= VERSIONS_KEPT + 3; v++) ids.push(await ctx.store.bots.insertVersion(bot.id, v, botContent(`v${v}`), v * 1000, `model-${v}`));
      const listed = (await ctx.store.bots.versions(bot.id)).map((v) => v.version);
      assert.equal(listed.length, VERSIONS_KEPT);
      assert.equal(listed[0], VERSIONS_KEPT + 3);
      assert.equal(listed.at(-1), 4);
      assert.equal(await ctx.store.bots.versionByNumber(bot.id, 3), null);
      assert.equal(await ctx.store.bots.nlpModel(ids.at(-1)!), `model-${VERSIONS_KEPT + 3}`);
      assert.equal(await ctx.store.bots.nlpModel(ids.at(-2)!), `model-${VERSIONS_KEPT + 2}`);
      assert.equal(await ctx.store.bots.nlpModel(ids.at(-3)!), null);
      assert.deepEqual((await ctx.store.bots.versionById(ids.at(-3)!))?.content, botContent(`v${VERSIONS_KEPT + 1}`));
      // another bot's versions are not touched
      const other = await seedBot(ctx.store);
      const otherId = await ctx.store.bots.insertVersion(other.bot.id, 1, botContent('o'), 1, 'model-o');
      await ctx.store.bots.insertVersion(bot.id, VERSIONS_KEPT + 4, botContent('next'), 1, null);
      assert.equal(await ctx.store.bots.nlpModel(otherId), 'model-o');
    });
  });
}
