// The web channel's HTTP side: what a web key opens (only /web/{key}/...), origins and CORS, a
// disabled channel, starting, resuming and talking in a web conversation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, buttonCommand, chatOk, summary, text, uid, valuesOf, WELCOME, ORDER_QUESTION } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sendWeb, setWeb, startWeb, web, webKeyOf } from '../support/web-kit.js';

const SHOP = 'https://shop.example.org';

for (const kind of databaseKinds()) {
  describe(`web channel: keys, origins, conversations (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    let key: string;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
      key = await webKeyOf(server.client, support);
    });
    after(() => server.close());

    test('a web key opens no /custom, /apihook or /bots route: 401 TOKEN_INVALID, also with simplified auth on', async () => {
      const c = server.client;
      const check = async () => {
        const calls = [
          c.get('/custom/config', { token: key }),
          c.post('/custom/chat', { UserId: 'x' }, { token: key }),
          c.get('/custom/values?userid=x', { token: key }),
          c.get('/custom/state?userid=x', { token: key }),
          c.post('/apihook/chat', { Text: 'hi' }, { token: key, headers: { 'user-id': 'x' } }),
          c.get('/bots', { token: key }),
          c.get(`/bots/${support.botKey}`, { token: key }),
          c.patch(`/bots/${support.botKey}/settings`, { simplifiedAuth: true }, { token: key }),
          c.get('/bots/backup', { token: key }),
        ];
        for (const res of await Promise.all(calls)) {
          assert.equal(res.status, 401, res.text);
          assert.equal(res.body.Code, 'TOKEN_INVALID');
        }
      };
      await check();
      const on = await c.patch(`/bots/${support.botKey}/settings`, { simplifiedAuth: true }, { token: support.accountToken });
      assert.equal(on.status, 200);
      try {
        await check();
      } finally {
        await c.patch(`/bots/${support.botKey}/settings`, { simplifiedAuth: false }, { token: support.accountToken });
      }
    });

    test('an unknown web key: 404 BOT_NOT_FOUND on every web route; the bot API key is no web key', async () => {
      for (const wrong of ['web_unknownunknownunknown', support.botKey, support.botSecret]) {
        const answers = [
          await web(server.client, 'GET', wrong, 'config'),
          await web(server.client, 'POST', wrong, 'conversation', {}),
          await web(server.client, 'POST', wrong, 'messages', { UserId: 'x', Text: 'hi' }),
          await web(server.client, 'GET', wrong, 'events?userid=x'),
          await web(server.client, 'OPTIONS', wrong, 'messages', undefined, SHOP),
        ];
        for (const res of answers) {
          assert.equal(res.status, 404, res.text);
          assert.equal(res.body.Code, 'BOT_NOT_FOUND');
          assert.equal(res.headers.get('access-control-allow-origin'), null);
        }
      }
    });

    test('web channel off (the default): 403 ORIGIN_FORBIDDEN; turning it on works at once', async () => {
      const file = botFile([{ name: 'Hello', actions: [text('Hello from the web')] }]);
      const plain = await createTenant(server.client, file);
      const plainKey = await webKeyOf(server.client, plain);
      const listed = await server.client.get('/bots', { token: plain.accountToken });
      assert.deepEqual(listed.body.Result[0].Channels, ['custom']);
      for (const res of [await web(server.client, 'POST', plainKey, 'conversation', {}), await web(server.client, 'GET', plainKey, 'config', undefined, SHOP)]) {
        assert.equal(res.status, 403, res.text);
        assert.equal(res.body.Code, 'ORIGIN_FORBIDDEN');
      }
      await setWeb(server.client, plain, { enabled: true, allowedOrigins: ['*'] });
      const started = await startWeb(server.client, plainKey, {}, SHOP);
      assert.deepEqual(summary(started.Parts), [[0, 'Hello from the web']]);
      await setWeb(server.client, plain, { enabled: false });
      const refused = await web(server.client, 'POST', plainKey, 'messages', { UserId: started.UserId, Text: 'hi' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.Code, 'ORIGIN_FORBIDDEN');
    });

    test('origins: a page on an origin not allowed gets 403 ORIGIN_FORBIDDEN without CORS headers; an allowed one gets them', async () => {
      const tenant = await createTenant(server.client);
      const tenantKey = await webKeyOf(server.client, tenant);
      await setWeb(server.client, tenant, { enabled: true, allowedOrigins: [SHOP, 'https://*.brand.example'] });
      for (const origin of ['https://evil.example', 'http://shop.example.org', 'https://shop.example.org.evil.example', 'https://brand.example', 'null']) {
        for (const res of [
          await web(server.client, 'POST', tenantKey, 'conversation', {}, origin),
          await web(server.client, 'GET', tenantKey, 'config', undefined, origin),
          await web(server.client, 'OPTIONS', tenantKey, 'conversation', undefined, origin),
        ]) {
          assert.equal(res.status, 403, `${origin}: ${res.text}`);
          assert.equal(res.body.Code, 'ORIGIN_FORBIDDEN');
          assert.equal(res.headers.get('access-control-allow-origin'), null);
        }
      }
      for (const origin of [SHOP, 'HTTPS://Shop.Example.org', 'https://eu.brand.example', 'https://a.b.brand.example']) {
        const res = await web(server.client, 'POST', tenantKey, 'conversation', {}, origin);
        assert.equal(res.status, 200, `${origin}: ${res.text}`);
        assert.equal(res.headers.get('access-control-allow-origin'), origin);
        assert.match(res.headers.get('vary') ?? '', /Origin/);
      }
      // the CORS preflight a browser sends before a JSON POST
      const preflight = await server.client.call('OPTIONS', `/web/${tenantKey}/messages`, undefined, {
        headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), SHOP);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /content-type/i);
      // errors after the origin check still carry the headers, so the page can read them
      const missing = await web(server.client, 'POST', tenantKey, 'messages', { UserId: 'nobody', Text: 'hi' }, SHOP);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('access-control-allow-origin'), SHOP);
      // no Origin at all (not a browser): CORS does not apply
      assert.equal((await web(server.client, 'GET', tenantKey, 'config')).status, 200);
    });

    test('start: a new conversation on the web channel, with initial variables or a start behaviour', async () => {
      const config = await web(server.client, 'GET', key, 'config');
      assert.deepEqual(config.body, { Name: 'Support Desk', Avatar: 'https://example.org/avatars/support.png', Color: '#1d4ed8', Greeting: '', Position: 'right' });
      const started = await startWeb(server.client, key);
      assert.deepEqual(summary(started.Parts), WELCOME);
      assert.equal(started.EnableUserChat, false);
      const values = await valuesOf(server, support.botToken, started.UserId);
      assert.equal(values.Context.Channel, 'web');
      assert.equal(values.Variables.find((v: any) => v.Name === 'channel').Value, 'web');

      // A page sets only the variables the bot accepts from pages (docs/decisions.md "Web channel").
      const ignored = await startWeb(server.client, key, { Variables: { company: 'Initech' } });
      assert.equal(ignored.Parts[0].Text, 'Welcome to ACME support!');
      await setWeb(server.client, support, { acceptVariables: ['company'] });
      const withVariables = await startWeb(server.client, key, { Variables: { company: 'Initech' } });
      await setWeb(server.client, support, { acceptVariables: [] });
      assert.equal(withVariables.Parts[0].Text, 'Welcome to Initech support!');
      const inOrders = await startWeb(server.client, key, { Behaviour: 'Orders' });
      assert.deepEqual(summary(inOrders.Parts), [ORDER_QUESTION]);
      assert.equal(inOrders.EnableUserChat, true);
      assert.equal(new Set([started.UserId, ignored.UserId, withVariables.UserId, inOrders.UserId]).size, 4);
    });

    test('resume: a known web user id gets its READY history, stored once; other ids start afresh', async () => {
      const started = await startWeb(server.client, key);
      const clicked = await sendWeb(server.client, key, { UserId: started.UserId, Command: buttonCommand(started.Parts, 'Track an order') });
      assert.deepEqual(summary(clicked.Parts), [ORDER_QUESTION]);
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.equal(resumed.UserId, started.UserId);
      assert.deepEqual(summary(resumed.Parts), [...WELCOME, [19, 'Track an order'], ORDER_QUESTION]);
      assert.equal(resumed.EnableUserChat, true);
      assert.deepEqual((await startWeb(server.client, key, { UserId: started.UserId })).Parts, resumed.Parts);

      // an id the bot does not know is not adopted: the server makes a new one
      const unknown = uid('browser-made');
      const fresh = await startWeb(server.client, key, { UserId: unknown });
      assert.notEqual(fresh.UserId, unknown);
      assert.deepEqual(summary(fresh.Parts), WELCOME);
      // a custom-channel conversation is out of the web key's reach
      const custom = uid('custom');
      await chatOk(server, support.botToken, { UserId: custom, Text: 'secret order talk' });
      const other = await startWeb(server.client, key, { UserId: custom });
      assert.notEqual(other.UserId, custom);
      assert.ok(!JSON.stringify(other.Parts).includes('secret order talk'));
      const send = await web(server.client, 'POST', key, 'messages', { UserId: custom, Text: 'hi' });
      assert.equal(send.status, 404);
      assert.equal(send.body.Code, 'CONVERSATION_NOT_FOUND');
      const events = await web(server.client, 'GET', key, `events?userid=${custom}`);
      assert.equal(events.status, 404);
      assert.equal(events.body.Code, 'CONVERSATION_NOT_FOUND');
    });

    test('send: texts and button payloads run the flow of the web conversation', async () => {
      const started = await startWeb(server.client, key);
      const user = started.UserId;
      const products = await sendWeb(server.client, key, { UserId: user, Command: buttonCommand(started.Parts, 'Browse products') });
      assert.equal(products.Parts[0].Type, 5);
      const chosen = await sendWeb(server.client, key, { UserId: user, Command: buttonCommand(products.Parts, 'Toaster') });
      assert.deepEqual(summary(chosen.Parts), [
        [0, 'Good choice: the Toaster.'],
        [0, chosen.Parts[1].Text],
      ]);
      assert.equal(chosen.EnableUserChat, true);
      const orders = await sendWeb(server.client, key, { UserId: user, Text: 'restart' });
      const asked = await sendWeb(server.client, key, { UserId: user, Command: buttonCommand(orders.Parts, 'Track an order') });
      assert.deepEqual(summary(asked.Parts), [ORDER_QUESTION]);
      const found = await sendWeb(server.client, key, { UserId: user, Text: '123456' });
      assert.equal(found.Parts[0].Text, 'Order 123456 is on its way.');
      const values = await valuesOf(server, support.botToken, user);
      assert.equal(values.Variables.find((v: any) => v.Name === 'order_number').Value, '123456');
      assert.ok(values.Tags.includes('has_order'));
      assert.equal(values.Context.Channel, 'web');
      const unknown = await web(server.client, 'POST', key, 'messages', { UserId: uid('never'), Text: 'hi' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
    });

    test('GET /widget.js serves the widget with an ETag; GET /demo embeds it', async () => {
      const script = await server.client.get('/widget.js');
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^application\/javascript/);
      assert.ok(script.text.includes('Colloquy'));
      const etag = script.headers.get('etag')!;
      const again = await server.client.get('/widget.js', { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      const page = await server.client.get(`/demo?bot=${key}`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(page.text.includes(`<script src="/widget.js" data-bot="${key}"`));
      const hostile = await server.client.get(`/demo?bot=${encodeURIComponent('"><script>alert(1)</script>')}`);
      assert.ok(!hostile.text.includes('<script>alert(1)'));
      assert.equal(supportBot().settings.channels.web.enabled, true);
    });
  });
}
