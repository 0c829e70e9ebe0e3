// A bot's secrets (agents.md "Secrets") end to end: the routes and their bounds, `{{secret.NAME}}` in
// a callApi's URL, headers and body filled only for the secret's Hosts (encoded for where it lands),
// a user's text or variable unable to ask for one, and the value never returned, never in the bot
// file, a clone, a webhook, a variable or a log. On both databases.
import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, text } from '../support/chat-kit.js';
import { botIdOf } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { closeDouble, listenOnLoopback } from '../support/double-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { setCustomChannel } from '../support/webhook-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** A value with every character URL and JSON encoding care about. */
const VALUE = 'sk-live "7&q=1/\\ é';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An API that answers with what it was sent (so an echoed secret can be looked for). */
async function echoApi() {
  const seen: Seen[] = [];
  const { server, url } = await listenOnLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(call);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: call.headers.authorization ?? '' }));
    });
  });
  return { seen, url, port: new URL(url).port, close: () => closeDouble(server, []) };
}

const callApi = (url: string, extra: Record<string, unknown> = {}) => ({
  type: 'callApi',
  method: 'POST',
  url,
  headers: { Authorization: 'Bearer {{secret.shop_api}}', 'Content-Type': 'application/json', 'X-Missing': 'k{{secret.missing}}' },
  body: '{"token":"{{secret.shop_api}}","q":"{{q}}"}',
  variable: 'answer',
  responsePath: 'echo',
  ...extra,
});

for (const kind of databaseKinds()) {
  describe(`secrets (${kind})`, () => {
    let api: Awaited<ReturnType<typeof echoApi>>;
    let hooks: WebhookReceiver;
    let server: TestServer;
    let tenant: Tenant;
    const logged: string[] = [];
    const secretsOf = (t: Tenant) => server.client.get(`/bots/${t.botKey}/secrets`, { token: t.accountToken });
    const putSecret = (t: Tenant, name: string, body: unknown) => server.client.put(`/bots/${t.botKey}/secrets/${name}`, body, { token: t.accountToken });

    before(async () => {
      api = await echoApi();
      hooks = await WebhookReceiver.start();
      server = await startTestServer(kind, {}, { log: (line) => logged.push(line) });
      const base = `http://127.0.0.1:${api.port}`;
      tenant = await createTenant(
        server.client,
        botFile([
          { name: 'Start', actions: [callApi(`${base}/orders/{{secret.shop_api}}?key={{secret.shop_api}}&q={{q}}`), text('Answer: {{answer}} / {{secret.shop_api}}')] },
          { name: 'Elsewhere', actions: [callApi(`http://localhost:${api.port}/other?key={{secret.shop_api}}`)] },
          { name: 'InHost', actions: [callApi(`http://127.0.0.{{secret.one}}:${api.port}/host`)] },
        ]),
      );
      await setCustomChannel(server, tenant, { webhookUrl: hooks.url, includeAllChannels: true });
    });
    after(async () => {
      await server.close();
      await hooks.close();
      await api.close();
    });

    test('PUT stores (204), GET lists names and hosts only, never the value', async () => {
      assert.equal((await putSecret(tenant, 'shop_api', { Value: VALUE, Hosts: ['127.0.0.1', 'Shop.Example.'] })).status, 204);
      assert.equal((await putSecret(tenant, 'one', { Value: '1', Hosts: ['127.0.0.1'] })).status, 204);
      const listed = await secretsOf(tenant);
      assert.equal(listed.status, 200);
      assert.deepEqual(
        listed.body.Result.map((s: any) => [s.Name, s.Hosts]),
        [
          ['one', ['127.0.0.1']],
          ['shop_api', ['127.0.0.1', 'shop.example']],
        ],
      );
      assert.match(listed.body.Result[0].UpdatedAt, /^\d{4}-\d\d-\d\dT/);
      assert.equal(listed.text.includes('sk-live'), false);
      const file = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.equal(file.text.includes('sk-live'), false);
      // the audit log names the secret, never its value (governance.md "Audit log")
      const audit = await server.client.get('/account/audit?action=secret.set', { token: tenant.accountToken });
      assert.equal(audit.status, 200);
      assert.deepEqual(
        audit.body.Result.map((e: any) => e.Target.split('/').filter((t: string) => t.startsWith('secret:'))),
        [['secret:one'], ['secret:shop_api']],
      );
      assert.equal(audit.text.includes('sk-live'), false);
    });

    test('bounds: name pattern, value size, hosts, secrets per bot', async () => {
      const refused = async (name: string, body: unknown, code: string) => {
        const res = await putSecret(tenant, name, body);
        assert.equal(res.status, 400, `${name}: ${res.text}`);
        assert.equal(res.body.Code, code);
      };
      await refused('bad-name', { Value: 'v', Hosts: ['a.example'] }, 'INVALID_REQUEST');
      await refused('n'.repeat(65), { Value: 'v', Hosts: ['a.example'] }, 'INVALID_REQUEST');
      await refused('big', { Value: 'v'.repeat(8193), Hosts: ['a.example'] }, 'INVALID_REQUEST');
      await refused('nohost', { Value: 'v', Hosts: [] }, 'INVALID_REQUEST');
      await refused('nohost', { Value: 'v' }, 'INVALID_REQUEST');
      await refused('manyhosts', { Value: 'v', Hosts: Array.from({ length: 21 }, (_, i) => `h${i}.example`) }, 'INVALID_REQUEST');
      for (const host of ['https://a.example', 'a.example/path', 'a.example:443', '-a.example', 'a..example', '*.example']) {
        await refused('badhost', { Value: 'v', Hosts: [host] }, 'INVALID_REQUEST');
      }
      const other = await createTenant(server.client);
      for (let i = 0; i < 100; i++) assert.equal((await putSecret(other, `s${i}`, { Value: 'v', Hosts: ['a.example'] })).status, 204);
      const full = await putSecret(other, 's100', { Value: 'v', Hosts: ['a.example'] });
      assert.equal(full.status, 400);
      assert.equal(full.body.Code, 'SECRET_LIMIT');
      assert.equal((await putSecret(other, 's99', { Value: 'w', Hosts: ['b.example'] })).status, 204, 'replacing one is not one more');
      assert.equal((await server.client.delete(`/bots/${other.botKey}/secrets/s99`, { token: other.accountToken })).status, 204);
      assert.equal((await secretsOf(other)).body.Result.length, 99);
    });

    test('callApi: the value goes only to its hosts, URL-encoded in the URL, JSON-escaped in a JSON body, as is in a header', async () => {
      const reply = await chatOk(server, tenant.botToken, { UserId: 'ann', Text: 'hi', Variables: [{ Name: 'q', Value: 'shoes' }] });
      const call = api.seen.at(-1)!;
      const url = new URL(call.url, 'http://x');
      assert.equal(url.pathname, `/orders/${encodeURIComponent(VALUE)}`);
      assert.equal(url.searchParams.get('key'), VALUE);
      assert.equal(url.searchParams.get('q'), 'shoes');
      assert.equal(call.headers.authorization, `Bearer ${VALUE}`);
      assert.equal(call.headers['x-missing'], 'k');
      assert.deepEqual(JSON.parse(call.body), { token: VALUE, q: 'shoes' });
      // the API echoed the value: the flow (and so the reply, variables and webhooks) sees its name;
      // {{secret.*}} in a text is nothing
      assert.deepEqual(
        reply.Parts.map((p: any) => p.Text),
        ['Answer: Bearer [secret shop_api] / '],
      );
    });

    test("the designer's preview (the draft, run under a twin bot id) fills the real bot's secrets by the same rule", async () => {
      const calls = api.seen.length;
      const res = await server.client.post(`/bots/${tenant.botKey}/preview/chat`, { UserId: 'pv-1', Variables: [{ Name: 'q', Value: 'p' }] }, { token: tenant.accountToken });
      assert.equal(res.status, 200, res.text);
      assert.equal(api.seen.length, calls + 1);
      assert.equal(api.seen.at(-1)!.headers.authorization, `Bearer ${VALUE}`);
      assert.deepEqual(
        res.body.Parts.map((p: any) => p.Text),
        ['Answer: Bearer [secret shop_api] / '],
      );
    });

    test('a host not among the Hosts, or a secret in the host name: sent empty', async () => {
      const at = (interaction: string) => chatOk(server, tenant.botToken, { UserId: 'bob', ForcedBehaviour: 'Main', ForcedInteraction: interaction });
      await at('Elsewhere');
      const elsewhere = api.seen.at(-1)!;
      assert.equal(elsewhere.url, '/other?key=');
      assert.equal(elsewhere.headers.authorization, 'Bearer');
      assert.deepEqual(JSON.parse(elsewhere.body), { token: '', q: '' });
      const calls = api.seen.length;
      await at('InHost');
      // http://127.0.0.:port names no host at all: nothing sent anywhere
      assert.equal(api.seen.length, calls);
    });

    test('a user cannot ask for a secret: not with a text, a value, or a variable named secret.*', async () => {
      for (const q of ['{{secret.shop_api}}', '\uFDD0shop_api\uFDD1', '\uFDD0', 'shop_api\uFDD1']) {
        const calls = api.seen.length;
        await chatOk(server, tenant.botToken, {
          UserId: `eve-${calls}`,
          Text: 'hi',
          Variables: [
            { Name: 'q', Value: q },
            { Name: 'secret.shop_api', Value: 'forged' },
          ],
        });
        assert.equal(api.seen.length, calls + 1);
        const call = api.seen.at(-1)!;
        const sent = JSON.parse(call.body);
        assert.equal(sent.token, VALUE, "the author's slot still has the real value");
        assert.equal(sent.q, q.replace(/[\uFDD0\uFDD1]/g, ''), `q=${JSON.stringify(q)} is sent as text`);
        assert.equal(new URL(call.url, 'http://x').searchParams.get('q'), q.replace(/[\uFDD0\uFDD1]/g, ''));
      }
    });
    test('the value is in no webhook, no variable, no log; not in a clone; gone with its bot', async () => {
      await hooks.waitFor((r) => r.calls.some((c) => c.raw.includes('[secret shop_api]')), 'the webhook of the echoed answer');
      for (const call of hooks.calls) assert.equal(call.raw.includes('sk-live'), false, call.raw.slice(0, 200));
      const values = await server.client.get('/custom/values?userid=ann', { token: tenant.botToken });
      assert.equal(values.status, 200);
      assert.equal(values.text.includes('sk-live'), false);
      assert.equal(
        logged.some((line) => line.includes('sk-live')),
        false,
      );

      const file = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      const bot = await server.client.get(`/bots`, { token: tenant.accountToken });
      const secret = bot.body.Result.find((b: any) => b.APIKey === tenant.botKey)?.APISecret;
      const clone = await server.client.post('/bot/clone', { Source: { BotAPIKey: tenant.botKey, BotSecret: secret }, Destination: { BotName: 'Copy' } }, { token: tenant.accountToken });
      assert.equal(clone.status, 200, clone.text);
      assert.equal(file.status, 200);
      assert.deepEqual((await server.client.get(`/bots/${clone.body.APIKey}/secrets`, { token: tenant.accountToken })).body, { Result: [] });

      const botId = await botIdOf(server, tenant.botKey);
      assert.equal((await server.client.delete(`/bots/${tenant.botKey}/secrets/one`, { token: tenant.accountToken })).status, 204);
      assert.deepEqual(
        (await secretsOf(tenant)).body.Result.map((s: any) => s.Name),
        ['shop_api'],
      );
      assert.equal((await server.client.delete(`/bots/${tenant.botKey}`, { token: tenant.accountToken })).status, 200);
      assert.deepEqual(await server.running.store.secrets.list(botId), []);
    });
  });
}
