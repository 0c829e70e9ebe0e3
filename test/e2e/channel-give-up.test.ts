// channels.md "Outbound": a platform that keeps failing is retried with backoff and given up after
// 24 hours, the failure kept in LastError and counted in /metrics; a refusal that retrying cannot
// help (400) is given up at once. Time is a clock only the test moves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { botFile, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';
import { ManualClock } from '../support/webhook-kit.js';

const TOKEN = '271828182:AAH-give-up-token-abcdefghijklmnop';

for (const kind of databaseKinds()) {
  describe(`Telegram deliveries given up (${kind})`, () => {
    const clock = new ManualClock(Date.now());
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    let path: string;
    let secret: string;
    let update = 0;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'patient_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url }, { clock: clockFrom(() => clock.ms) });
      tenant = await createTenant(
        server.client,
        botFile([
          { name: 'Hello', actions: [text('hello')] },
          { name: 'Sorry', fallback: true, actions: [text('again')] },
        ]),
      );
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      path = new URL(connected.body.WebhookUrl).pathname;
      secret = telegram.webhook!.secret_token;
    });
    after(async () => {
      await server.close();
      await telegram.close();
    });

    const say = (chat: number, said: string) =>
      server.client.post(
        path,
        { update_id: ++update, message: { message_id: update, date: 1700000000, chat: { id: chat, type: 'private' }, from: { id: chat, is_bot: false, first_name: 'P' }, text: said } },
        { headers: { 'x-telegram-bot-api-secret-token': secret } },
      );
    const attemptsOf = (chat: number) => telegram.calls.filter((c) => String(c.params.chat_id) === String(chat)).length;
    // the manual clock moves past any token's lifetime: a fresh account token each time
    const listed = async () =>
      (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: await accountToken(server.client, tenant.accountKey) })).body.Result.find((c: any) => c.Channel === 'telegram');

    test('500 for a day: retried with backoff, then given up with LastError and the metric; the next message still goes out', async () => {
      const chat = 41;
      telegram.answerNext(...Array.from({ length: 40 }, () => ({ status: 500 as const })));
      assert.equal((await say(chat, '/start')).status, 200);
      await telegram.waitFor(() => attemptsOf(chat) === 1, 'the first attempt');
      // the next attempt is not made before its backoff (1 s), then it is
      assert.equal(await server.running.dispatcher.runOnce(), 0);
      clock.advance(1_000);
      await server.running.dispatcher.runOnce();
      await telegram.waitFor(() => attemptsOf(chat) === 2, 'the second attempt after 1 s');
      // a day later the row is given up on its next attempt
      clock.advance(24 * 3_600_000);
      await server.running.dispatcher.runOnce();
      await telegram.waitFor(() => attemptsOf(chat) === 3, 'the last attempt');
      let last = await listed();
      for (let i = 0; i < 50 && !/given up/.test(last.LastError ?? ''); i++) {
        await new Promise((r) => setTimeout(r, 20));
        last = await listed();
      }
      assert.match(last.LastError, /Telegram sendMessage: 500 .*\(given up\)/);
      clock.advance(10 * 60_000);
      assert.equal(await server.running.dispatcher.runOnce(), 0, 'nothing is tried again');
      const metrics = await server.client.get('/metrics');
      assert.match(metrics.text, /colloquy_channel_deliveries_total\{channel="telegram",outcome="given_up"\} 1/);
      // the conversation is not stuck behind it
      telegram.answerNormally();
      assert.equal((await say(chat, 'anyone?')).status, 200);
      await telegram.waitFor(() => telegram.textsOf(chat).includes('again'), 'the next reply');
    });

    test('403 (the user blocked the bot) is given up at once: no retry', async () => {
      const chat = 42;
      telegram.answerNext({ status: 403 });
      assert.equal((await say(chat, '/start')).status, 200);
      await telegram.waitFor(() => attemptsOf(chat) === 1, 'the attempt');
      let last = await listed();
      for (let i = 0; i < 50 && !/403/.test(last.LastError ?? ''); i++) {
        await new Promise((r) => setTimeout(r, 20));
        last = await listed();
      }
      assert.match(last.LastError, /Telegram sendMessage: 403 Forbidden: bot was blocked by the user \(given up\)/);
      clock.advance(3_600_000);
      assert.equal(await server.running.dispatcher.runOnce(), 0);
      assert.equal(attemptsOf(chat), 1);
    });
  });
}
