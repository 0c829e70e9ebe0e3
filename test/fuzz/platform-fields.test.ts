// Property-based: what a messaging platform sends, correctly authenticated (Telegram's secret
// token, Meta's signature over its own bytes), with any field oversized, of the wrong type, or
// holding NUL and lone surrogates (issue 22, finding 12). Whatever arrives: never a 5xx; and
// nothing is stored past the API's own limits — a user id of at most 256 characters after the
// channel's prefix, a user text of at most 16,384 characters — on either database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { botFile, text } from '../support/chat-kit.js';
import { openRaw, type RawDatabase } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { metaSignature } from '../support/meta-webhook.js';
import { MessengerDouble } from '../support/messenger-double.js';
import { APP_SECRET, PAGE_ID, PAGE_TOKEN } from '../support/messenger-kit.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';
import { WhatsAppDouble } from '../support/whatsapp-double.js';
import { hugeNumberText, loneSurrogateString } from './arbitraries.js';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 40));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TELEGRAM_TOKEN = '123456789:AAH-fuzz-token-abcdefghijklmnopqrstu';
const WA = { phoneNumberId: '109900000001', accessToken: `EAAGfuzz${'Q'.repeat(40)}`, appSecret: 'fuzz-app-secret-0123456789abcdef' };
/** The API's limits (docs/limits.md), which a platform's fields must not get around. */
const MAX_USER_ID = 256;
const MAX_TEXT = 16_384;

/** A field value: ordinary, oversized, of another type, or with characters PostgreSQL refuses. */
const fieldValue = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: fc.constantFrom(257, 4_000, 16_385, 250_000).chain((n) => fc.constantFrom('x', '9', 'é', '😀').map((c) => c.repeat(n))) },
  { weight: 2, arbitrary: fc.constantFrom('a\u0000b', '\u0000', `${'9'.repeat(30)}\u0000`) },
  { weight: 2, arbitrary: loneSurrogateString },
  { weight: 2, arbitrary: hugeNumberText.map((n) => ({ raw: n })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, [], {}, [1, 2], { id: 1 }) },
);

/** A JSON text in which `{raw: "…"}` values stand as raw numbers (2^53 + 1 is no double). */
const withRawNumbers = (value: unknown) => JSON.stringify(value).replace(/\{"raw":"([^"]*)"\}/g, '$1');

interface Platform {
  name: 'telegram' | 'whatsapp' | 'messenger';
  /** the fields an update carries that a hostile value may replace */
  fields: readonly string[];
  update(fields: Record<string, unknown>): unknown;
  send(server: TestServer, path: string, raw: string): Promise<{ status: number; text: string; body: any }>;
}

const telegram = (secret: () => string): Platform => ({
  name: 'telegram',
  fields: ['update_id', 'chat.id', 'from.id', 'text', 'message_id', 'first_name', 'username', 'callback_data'],
  update: (f) =>
    'callback_data' in f
      ? {
          update_id: f.update_id ?? 1,
          callback_query: {
            id: 'cq',
            from: { id: f['from.id'] ?? 5, is_bot: false, first_name: 'Ann' },
            chat_instance: '1',
            data: f.callback_data,
            message: { message_id: 1, date: 1700000000, chat: { id: f['chat.id'] ?? 5, type: 'private' } },
          },
        }
      : {
          update_id: f.update_id ?? 1,
          message: {
            message_id: f.message_id ?? 1,
            date: 1700000000,
            chat: { id: f['chat.id'] ?? 5, type: 'private' },
            from: { id: f['from.id'] ?? 5, is_bot: false, first_name: f.first_name ?? 'Ann', username: f.username ?? 'ann' },
            text: f.text ?? 'hi',
          },
        },
  send: (server, path, raw) => server.client.post(path, undefined, { raw, headers: { 'x-telegram-bot-api-secret-token': secret() } }),
});

const metaSend = (secret: string) => (server: TestServer, path: string, raw: string) => server.client.post(path, undefined, { raw, headers: { 'x-hub-signature-256': metaSignature(raw, secret) } });

const whatsapp: Platform = {
  name: 'whatsapp',
  fields: ['wa_id', 'from', 'id', 'text', 'name', 'timestamp', 'button_id'],
  update: (f) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000000', phone_number_id: WA.phoneNumberId },
              contacts: [{ profile: { name: f.name ?? 'Zoë' }, wa_id: f.wa_id ?? '491500000001' }],
              messages: [
                {
                  from: f.from ?? '491500000001',
                  id: f.id ?? 'wamid.x',
                  timestamp: f.timestamp ?? '1700000000',
                  ...('button_id' in f
                    ? { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: f.button_id, title: 'b' } } }
                    : { type: 'text', text: { body: f.text ?? 'hi' } }),
                },
              ],
            },
          },
        ],
      },
    ],
  }),
  send: metaSend(WA.appSecret),
};

const messenger: Platform = {
  name: 'messenger',
  fields: ['sender.id', 'mid', 'text', 'payload', 'timestamp'],
  update: (f) => ({
    object: 'page',
    entry: [
      {
        id: PAGE_ID,
        time: 1700000000000,
        messaging: [
          {
            sender: { id: f['sender.id'] ?? '7000000000001' },
            recipient: { id: PAGE_ID },
            timestamp: f.timestamp ?? 1700000000000,
            ...('payload' in f ? { postback: { mid: f.mid ?? 'm_1', title: 'b', payload: f.payload } } : { message: { mid: f.mid ?? 'm_1', text: f.text ?? 'hi' } }),
          },
        ],
      },
    ],
  }),
  send: metaSend(APP_SECRET),
};

const echoFreeBot = () =>
  botFile(
    [
      { name: 'Welcome', actions: [text('Welcome!')] },
      { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
    ],
    { name: 'Platform fuzz' },
  );

for (const kind of databaseKinds()) {
  describe(`platform fields (${kind})`, { timeout: 600_000 + RUNS * 3 * 2_000 }, () => {
    let database: TestDatabase;
    let server: TestServer;
    let raw: RawDatabase;
    let tenant: Tenant;
    let telegramDouble: TelegramDouble;
    let graph: WhatsAppDouble;
    let paths: Record<string, string>;
    let messengerServer: TestServer;
    let messengerDatabase: TestDatabase;
    let messengerRaw: RawDatabase;
    let messengerGraph: MessengerDouble;

    before(async () => {
      telegramDouble = await TelegramDouble.start();
      telegramDouble.bots.set(TELEGRAM_TOKEN, 'fuzz_bot');
      graph = await WhatsAppDouble.start();
      graph.numbers.set(WA.phoneNumberId, WA.accessToken);
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, { COLLOQUY_TELEGRAM_API_URL: telegramDouble.url, COLLOQUY_META_GRAPH_URL: graph.graphUrl });
      tenant = await createTenant(server.client, echoFreeBot());
      const put = (channel: string, body: unknown) => server.client.put(`/bots/${tenant.botKey}/channels/${channel}`, body, { token: tenant.accountToken });
      const tg = await put('telegram', { Token: TELEGRAM_TOKEN });
      const wa = await put('whatsapp', { PhoneNumberId: WA.phoneNumberId, AccessToken: WA.accessToken, AppSecret: WA.appSecret });
      assert.equal(tg.status, 200, tg.text);
      assert.equal(wa.status, 200, wa.text);
      paths = { telegram: new URL(telegramDouble.webhook!.url).pathname, whatsapp: new URL(wa.body.WebhookUrl).pathname };
      raw = await openRaw(database);
      // Messenger takes the Graph URL of its own double: a server of its own
      messengerGraph = await MessengerDouble.start(PAGE_TOKEN);
      messengerDatabase = await createTestDatabase(kind);
      messengerServer = await startTestServerOn(messengerDatabase, { COLLOQUY_META_GRAPH_URL: messengerGraph.url });
      const other = await createTenant(messengerServer.client, echoFreeBot());
      const fb = await messengerServer.client.put(`/bots/${other.botKey}/channels/messenger`, { PageId: PAGE_ID, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET }, { token: other.accountToken });
      assert.equal(fb.status, 200, fb.text);
      paths.messenger = new URL(fb.body.WebhookUrl).pathname;
      messengerRaw = await openRaw(messengerDatabase);
    });
    after(async () => {
      await raw?.close();
      await messengerRaw?.close();
      await telegramDouble?.close();
      await graph?.close();
      await messengerGraph?.close();
      await server?.close();
      await messengerServer?.close();
      await database?.drop();
      await messengerDatabase?.drop();
    });

    /** What was stored past the API's limits, in either server's database. */
    async function overLimits(): Promise<string[]> {
      const problems: string[] = [];
      for (const db of [raw, messengerRaw]) {
        for (const row of await db.all('SELECT user_id FROM conversations')) {
          const id = String(row.user_id).replace(/^(telegram|whatsapp|messenger):/, '');
          if (id.length > MAX_USER_ID) problems.push(`a user id of ${id.length} characters`);
        }
        for (const row of await db.all("SELECT parts FROM messages WHERE direction = 'USER'")) {
          for (const part of JSON.parse(row.parts) as Array<{ Text?: string }>) if ((part.Text?.length ?? 0) > MAX_TEXT) problems.push(`a user text of ${part.Text!.length} characters`);
        }
      }
      return problems;
    }

    test('oversized, mistyped and unstorable fields of authenticated updates: never a 5xx, nothing stored past the limits', async () => {
      const platforms = [telegram(() => telegramDouble.webhook!.secret_token), whatsapp, messenger];
      // a case names its platform, so that fast-check prints it short
      const cases = fc
        .constantFrom(...platforms)
        .chain((platform) => fc.record({ platform: fc.constant(platform.name), fields: fc.dictionary(fc.constantFrom(...platform.fields), fieldValue, { minKeys: 1, maxKeys: 3 }) }));
      await fc.assert(
        fc.asyncProperty(cases, async ({ platform: name, fields }) => {
          const platform = platforms.find((p) => p.name === name)!;
          // Meta signs the bytes it sends, whatever they are: these bytes are signed as they are
          const body = withRawNumbers(platform.update(fields));
          const answer = await platform.send(platform.name === 'messenger' ? messengerServer : server, paths[platform.name], body);
          assert.ok(answer.status < 500, `${platform.name} ${answer.status} ${answer.text.slice(0, 200)} for ${body.slice(0, 300)}`);
          if (answer.status >= 400) assert.equal(typeof answer.body?.Code, 'string', answer.text.slice(0, 200));
          assert.deepEqual(await overLimits(), [], `after ${platform.name} ${body.slice(0, 300)}`);
        }),
        { numRuns: RUNS, seed: SEED, includeErrorInReport: true },
      );
      // the channels still work after all of it
      const ok = await telegram(() => telegramDouble.webhook!.secret_token).send(
        server,
        paths.telegram,
        JSON.stringify(telegram(() => '').update({ update_id: 999_999, 'chat.id': 424242, text: 'hello' })),
      );
      assert.equal(ok.status, 200, ok.text);
      await telegramDouble.waitFor(() => telegramDouble.textsOf(424242).includes('Welcome!'), 'the welcome after the fuzzing');
    });
  });
}
