// Issue 22 finding 13: a lone UTF-16 surrogate ("\ud800", which JSON can carry as an escape) in a
// chat Text or a variable name answered 500 on PostgreSQL, whose JSON refuses it. Decided once
// (docs/decisions.md): every lone surrogate that comes in becomes U+FFFD at the edge, on every
// route, database and channel; nothing is refused for it. Each place below stores U+FFFD.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { botFile, chatOk, text, variablesOf } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TelegramDouble } from '../support/telegram-double.js';

const LONE = '\ud800';
const TRAILING = '\udc00';
const REPLACED = '\ufffd';
const TOKEN = '123456789:AAH-test-token-abcdefghijklmnopqrstu';
const echoBot = (name = 'Echo') =>
  botFile(
    [
      { name: 'Hello', actions: [text('Hello')] },
      { name: 'Echo', fallback: true, actions: [text('You said: {{last_user_text}}')] },
    ],
    { name },
  );

for (const kind of databaseKinds()) {
  describe(`a lone surrogate becomes U+FFFD at the edge (${kind})`, () => {
    let telegram: TelegramDouble;
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'echo_test_bot');
      server = await startTestServer(kind, { COLLOQUY_TELEGRAM_API_URL: telegram.url });
      tenant = await createTenant(server.client, echoBot());
    });
    after(async () => {
      assert.deepEqual(telegram.violations, []);
      await server.close();
      await telegram.close();
    });

    test('Text, UserId, a variable name and a variable value of /custom/chat', async () => {
      const user = `lone-${LONE}-user`;
      await chatOk(server, tenant.botToken, { UserId: user });
      const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: `odd ${LONE} and ${TRAILING} text`, Variables: [{ Name: `name${LONE}`, Value: `value${TRAILING}` }] });
      const stored = `lone-${REPLACED}-user`;
      assert.equal(reply.UserId, stored);
      assert.deepEqual(
        reply.Parts.map((p: any) => p.Text),
        [`You said: odd ${REPLACED} and ${REPLACED} text`],
      );
      const variables = await variablesOf(server, tenant.botToken, stored);
      assert.equal(variables[`name${REPLACED}`], `value${REPLACED}`);
      assert.equal(variables.last_user_text, `odd ${REPLACED} and ${REPLACED} text`);
      // the record form of Variables, and the history read back
      await chatOk(server, tenant.botToken, { UserId: stored, Variables: { [`key${LONE}`]: `more${LONE}` } });
      assert.equal((await variablesOf(server, tenant.botToken, stored))[`key${REPLACED}`], `more${REPLACED}`);
      const history = await chatOk(server, tenant.botToken, { UserId: stored, Command: 'READY' });
      assert.ok(
        history.Parts.some((p: any) => p.Text === `You said: odd ${REPLACED} and ${REPLACED} text`),
        JSON.stringify(history.Parts),
      );
    });

    test('a URL cannot carry one: its encoded halves are kept as sent in a query and refused in a path, never a 5xx', async () => {
      const query = await server.client.get('/custom/values?userid=lone-%ED%A0%80-user', { token: tenant.botToken });
      assert.deepEqual([query.status, query.body.Code], [404, 'CONVERSATION_NOT_FOUND']);
      const path = await server.client.get('/web/%ED%A0%80/config');
      assert.deepEqual([path.status, path.body.Code], [400, 'INVALID_REQUEST']);
    });

    test('a bot file string, as JSON and as YAML', async () => {
      const created = await server.client.post('/bots', echoBot(`Name ${LONE}`), { token: tenant.accountToken });
      assert.equal(created.status, 201, created.text);
      const read = await server.client.get(`/bots/${created.body.APIKey}`, { token: tenant.accountToken });
      assert.equal(read.body.name, `Name ${REPLACED}`);
      const yaml = toYaml(echoBot('placeholder')).replace('name: placeholder', 'name: "Yaml \\ud800"');
      const fromYaml = await server.client.post('/bots', undefined, { token: tenant.accountToken, raw: yaml, contentType: 'application/yaml' });
      assert.equal(fromYaml.status, 201, fromYaml.text);
      assert.equal((await server.client.get(`/bots/${fromYaml.body.APIKey}`, { token: tenant.accountToken })).body.name, `Yaml ${REPLACED}`);
    });

    test('a console note', async () => {
      await addOperator(server.client, tenant.accountId, 'ann@example.org');
      const ann = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
      await chatOk(server, tenant.botToken, { UserId: 'noted' });
      const path = ann.conversationPath(await botIdOf(server, tenant.botKey), 'noted');
      const added = await ann.post(`${path}/notes`, { Text: `note ${LONE}` });
      assert.equal(added.status, 201, added.text);
      assert.equal(added.body.Text, `note ${REPLACED}`);
      assert.deepEqual(
        (await ann.get(path)).body.Notes.map((n: any) => n.Text),
        [`note ${REPLACED}`],
      );
    });

    test('a Telegram update whose text carries one', async () => {
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/telegram`, { Token: TOKEN }, { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      const webhook = new URL(connected.body.WebhookUrl).pathname;
      const chatId = 7001;
      const update = (id: number, words: string) => ({
        update_id: id,
        message: { message_id: id, date: 1700000000, chat: { id: chatId, type: 'private' }, from: { id: chatId, is_bot: false, first_name: `Ann${LONE}` }, text: words },
      });
      const headers = { 'x-telegram-bot-api-secret-token': telegram.webhook!.secret_token };
      for (const [id, words] of [
        [1, 'hi'],
        [2, `tg ${LONE} text`],
      ] as const) {
        const res = await server.client.post(webhook, update(id, words), { headers });
        assert.equal(res.status, 200, res.text);
        await telegram.waitFor(() => telegram.delivered(chatId).length >= id, `the reply to update ${id}`);
      }
      assert.deepEqual(telegram.textsOf(chatId), ['Hello', `You said: tg ${REPLACED} text`]);
      const variables = await variablesOf(server, tenant.botToken, `telegram:${chatId}`);
      assert.equal(variables.first_name, `Ann${REPLACED}`);
    });
  });
}
