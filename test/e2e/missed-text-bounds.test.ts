// Missed texts are bounded like the history (docs/limits.md "Missed texts"): each stored text is
// cut to 1 KiB, so the grouping index takes any text (a 16 KB one used to be refused by
// PostgreSQL's btree: 500, and a Telegram update never answered); a conversation keeps its newest
// 100, a bot its newest 10,000, none older than 90 days.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { LIMITS } from '../../src/conversations/limits.js';
import { botFile, chat, chatOk, text, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, freshTokens, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';
import { ManualClock } from '../support/webhook-kit.js';
import { setWeb, startWeb, web, webKeyOf } from '../support/web-kit.js';

const TOKEN = '314159265:AAH-missed-token-abcdefghijklmnopq';
const DAY = 24 * 3_600_000;
const bot = () =>
  botFile([
    { name: 'Start', start: true, actions: [text('Hi')] },
    { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
  ]);
/**
 * A text of `length` characters that starts with `head` (distinct heads make distinct groups), of
 * random words: PostgreSQL compresses a repetitive text below the btree's limit.
 */
const long = (head: string, length: number) =>
  `${head} ${crypto
    .randomBytes(length)
    .toString('base64')
    .replace(/(.{7})/g, '$1 ')}`.slice(0, length);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

for (const kind of databaseKinds()) {
  describe(`missed texts are bounded (${kind})`, () => {
    const clock = new ManualClock(Date.now());
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'missed_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url }, { clock: clockFrom(() => clock.ms) });
      tenant = await createTenant(server.client, bot());
    });
    after(async () => {
      assert.deepEqual(telegram.violations, []);
      await server.close();
      await telegram.close();
    });

    const missed = async (t: Tenant = tenant) => {
      const res = await server.client.get(`/bots/${t.botKey}/missed?limit=1000`, { token: t.accountToken });
      assert.equal(res.status, 200, res.text);
      return res.body.Result as Array<{ Text: string; Count: number }>;
    };

    test('a 16,384-character fallback text on /custom/chat and on the web channel is answered, and listed cut to 1 KiB', async () => {
      const own = await createTenant(server.client, bot());
      const userId = uid('long');
      await chatOk(server, own.botToken, { UserId: userId });
      const custom = long('Custom', 16_384);
      const res = await chat(server, own.botToken, { UserId: userId, Text: custom });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      assert.equal(res.body.Parts.at(-1).Text, 'Sorry?');

      await setWeb(server.client, own, { enabled: true, allowedOrigins: ['*'] });
      const key = await webKeyOf(server.client, own);
      const started = await startWeb(server.client, key);
      // multi-byte characters: the cut is in bytes, never inside a character
      const webText = long('Wéb', 16_384).replace(/a/g, 'ä').replace(/o/g, 'ö');
      const sent = await web(server.client, 'POST', key, 'messages', { UserId: started.UserId, Text: webText });
      assert.equal(sent.status, 200, sent.text.slice(0, 300));

      const listed = await missed(own);
      assert.deepEqual(listed.map((r) => [r.Text.split(' ')[0], r.Count]).sort(), [
        ['custom', 1],
        ['wéb', 1],
      ]);
      for (const row of listed) {
        assert.ok(bytes(row.Text) <= LIMITS.missedTextBytes && bytes(row.Text) > LIMITS.missedTextBytes - 4, `${bytes(row.Text)} bytes`);
        const whole = row.Text.startsWith('custom') ? custom : webText;
        assert.ok(whole.toLowerCase().startsWith(row.Text), 'the listed text is the start of what was said');
      }
    });

    test('a 4,000-character Telegram message reaches the fallback and gets its reply', async () => {
      const own = await createTenant(server.client, bot());
      const connected = await server.client.put(`/bots/${own.botKey}/channels/telegram`, { Token: TOKEN }, { token: own.accountToken });
      assert.equal(connected.status, 200, connected.text);
      const path = new URL(connected.body.WebhookUrl).pathname;
      const chatId = 777_001;
      const said = long('Telegram', 4000);
      const say = (update: number, words: string) =>
        server.client.post(
          path,
          { update_id: update, message: { message_id: update, date: 1700000000, chat: { id: chatId, type: 'private' }, from: { id: chatId, is_bot: false, first_name: 'T' }, text: words } },
          { headers: { 'x-telegram-bot-api-secret-token': telegram.webhook!.secret_token } },
        );
      // the first message starts the conversation (the welcome); the second reaches the fallback
      assert.equal((await say(9000, 'hello')).status, 200);
      await telegram.waitFor(() => telegram.textsOf(chatId).includes('Hi'), 'the welcome');
      assert.equal((await say(9001, said)).status, 200);
      await telegram.waitFor(() => telegram.textsOf(chatId).includes('Sorry?'), 'the fallback reply');
      assert.deepEqual(telegram.textsOf(chatId), ['Hi', 'Sorry?']);
      assert.deepEqual(
        (await missed(own)).map((r) => r.Text),
        [said.toLowerCase().slice(0, LIMITS.missedTextBytes)],
      );
    });

    test(`one conversation keeps its newest ${LIMITS.missedTextsPerConversation} missed texts, whatever it sends`, async () => {
      const own = await createTenant(server.client, bot());
      const flooder = uid('flood');
      const other = uid('other');
      await chatOk(server, own.botToken, { UserId: other });
      await chatOk(server, own.botToken, { UserId: other, Text: 'a question from someone else' });
      await chatOk(server, own.botToken, { UserId: flooder });
      const sent = LIMITS.missedTextsPerConversation + 20;
      for (let n = 1; n <= sent; n++) await chatOk(server, own.botToken, { UserId: flooder, Text: long(`flood-${n}`, 16_384) });
      const listed = await missed(own);
      // trimmed on every missedTextsTrimEvery-th turn: the newest 100, and at most 9 more since the last trim
      const most = LIMITS.missedTextsPerConversation + LIMITS.missedTextsTrimEvery - 1;
      const kept = listed
        .filter((r) => r.Text.startsWith('flood-'))
        .map((r) => Number(/^flood-(\d+) /.exec(r.Text)![1]))
        .sort((a, b) => a - b);
      assert.ok(kept.length >= LIMITS.missedTextsPerConversation && kept.length <= most, `${kept.length} kept`);
      assert.deepEqual(
        kept,
        Array.from({ length: kept.length }, (_, i) => sent - kept.length + 1 + i),
        'the newest, without a gap',
      );
      assert.ok(
        listed.some((r) => r.Text === 'a question from someone else'),
        'the flood did not evict another conversation',
      );
      const stored = listed.reduce((sum, r) => sum + bytes(r.Text), 0);
      assert.ok(stored <= (most + 1) * LIMITS.missedTextBytes, `${stored} bytes listed`);
    });

    test("the maintenance pass keeps a bot's newest texts and drops those older than the age limit", async () => {
      const own = await createTenant(server.client, bot());
      const botId = (await server.running.store.bots.byApiKey(own.botKey))!.id;
      for (const user of [uid('a'), uid('b'), uid('c')]) {
        await chatOk(server, own.botToken, { UserId: user });
        for (const n of [1, 2]) await chatOk(server, own.botToken, { UserId: user, Text: `${user} says ${n}` });
      }
      assert.equal((await missed(own)).length, 6);
      // the cap of 10,000 a bot, tried with a cap of 4: the newest 4 stay
      assert.equal(await server.running.store.missedTexts.keepNewest(botId, 4), 2);
      assert.equal((await missed(own)).length, 4);

      clock.advance(LIMITS.missedTextDays * DAY + 1000);
      // tokens have expired meanwhile
      const later = await freshTokens(server.client, own);
      const late = uid('late');
      await chatOk(server, later.botToken, { UserId: late });
      await chatOk(server, later.botToken, { UserId: late, Text: 'still here' });
      await server.running.maintenance.runOnce();
      assert.deepEqual(
        (await missed(later)).map((r) => r.Text),
        ['still here'],
      );
    });
  });
}
