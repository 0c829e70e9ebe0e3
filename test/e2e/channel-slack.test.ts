// Slack (channels-more.md) end to end: the real server, its Events API and interactivity URLs driven
// with Slack's own request shapes signed with the signing secret, and a Web API double that checks
// every chat.postMessage against the documented Block Kit limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, openRaw, signIn } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { B_CARDS, B_MEDIA, C_CAT, IMAGE, shopBot, SIZES } from '../support/messenger-kit.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { SlackDouble } from '../support/slack-double.js';
import { BOT_USER, SIGNING_SECRET, signed, SLACK_BOT_TOKEN, SlackEvents, TEAM, type SignedRequest } from '../support/slack-kit.js';

for (const kind of databaseKinds()) {
  describe(`Slack channel (${kind})`, () => {
    let slack: SlackDouble;
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let webhookPath: string;
    let interactivePath: string;
    let dm = 0;
    const ev = new SlackEvents();

    before(async () => {
      slack = await SlackDouble.start(SLACK_BOT_TOKEN);
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, { COLLOQUY_SLACK_API_URL: slack.url });
      tenant = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/slack`, { BotToken: SLACK_BOT_TOKEN, SigningSecret: SIGNING_SECRET }, { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      assert.deepEqual(Object.keys(connected.body).sort(), ['Account', 'Channel', 'Enabled', 'InteractivityUrl', 'WebhookUrl']);
      assert.deepEqual([connected.body.Channel, connected.body.Enabled, connected.body.Account], ['slack', true, 'shopbot']);
      assert.equal(connected.body.InteractivityUrl, `${connected.body.WebhookUrl}/interactive`);
      webhookPath = new URL(connected.body.WebhookUrl).pathname;
      interactivePath = new URL(connected.body.InteractivityUrl).pathname;
    });
    after(async () => {
      slack.assertNoViolations();
      await slack.close();
      await server.close();
      await database.drop();
    });

    const newDm = () => `D0${process.pid}${++dm}`;
    const deliver = (path: string, request: SignedRequest) => server.client.post(path, undefined, { raw: request.raw, contentType: request.contentType, headers: request.headers });
    const event = (body: unknown, options: Parameters<typeof signed>[2] = {}) => deliver(webhookPath, signed(JSON.stringify(body), 'application/json', options));
    const click = (payload: unknown, options: Parameters<typeof signed>[2] = {}) => deliver(interactivePath, signed(SlackEvents.form(payload), 'application/x-www-form-urlencoded', options));
    const say = (channel: string, text: string) => event(ev.callback(ev.dm(channel, text)));
    const stateOf = (userId: string) => server.client.get(`/custom/state?userid=${encodeURIComponent(userId)}`, { token: tenant.botToken });
    const welcomed = (channel: string, thread?: string) => slack.waitFor(() => slack.textsTo(channel, thread).length >= 2, 'the welcome');

    test("connect: auth.test names the bot; a refused token is 400 CHANNEL_REJECTED with Slack's error; missing fields 400; a bot token 403", async () => {
      assert.match(webhookPath, /^\/channels\/slack\/[A-Za-z0-9_-]{22,}$/);
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'slack');
      assert.deepEqual(listed, { Channel: 'slack', Enabled: true, WebhookUrl: `${server.url}${webhookPath}`, Account: 'shopbot', LastInboundAt: null, LastError: null });
      const other = await createTenant(server.client, shopBot());
      const put = (body: unknown, token = other.accountToken) => server.client.put(`/bots/${other.botKey}/channels/slack`, body, { token });
      const refused = await put({ BotToken: 'xoxb-revoked', SigningSecret: SIGNING_SECRET });
      assert.deepEqual([refused.status, refused.body.Code, refused.body.Description], [400, 'CHANNEL_REJECTED', 'invalid_auth']);
      const missing = await put({ BotToken: SLACK_BOT_TOKEN });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'SigningSecret']);
      const spaced = await put({ BotToken: 'xoxb- with spaces', SigningSecret: SIGNING_SECRET });
      assert.deepEqual([spaced.status, spaced.body.Code], [400, 'INVALID_REQUEST']);
      const byBot = await put({ BotToken: SLACK_BOT_TOKEN, SigningSecret: SIGNING_SECRET }, other.botToken);
      assert.deepEqual([byBot.status, byBot.body.Code], [403, 'TOKEN_SCOPE']);
      for (const where of [`/bots/${tenant.botKey}/channels`, `/bots/${tenant.botKey}`]) {
        const res = await server.client.get(where, { token: tenant.accountToken });
        for (const secret of [SLACK_BOT_TOKEN, SIGNING_SECRET]) assert.ok(!res.text.includes(secret), `${where} holds no credential`);
      }
    });

    test('url_verification is answered with its challenge, once signed; unsigned it is 401', async () => {
      const body = { token: 'x', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' };
      const ok = await event(body);
      assert.equal(ok.status, 200);
      assert.match(ok.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(ok.text, body.challenge);
      const forged = await deliver(webhookPath, { raw: JSON.stringify(body), contentType: 'application/json', headers: {} });
      assert.deepEqual([forged.status, forged.body.Code], [401, 'SIGNATURE_INVALID']);
    });

    test('a direct message starts the conversation on slack; buttons are a section and an actions block with value = the button id', async () => {
      const channel = newDm();
      assert.equal((await say(channel, 'hello there')).status, 200);
      await welcomed(channel);
      const [welcome, menu] = slack.postsTo(channel);
      assert.deepEqual(welcome, { channel, text: 'Welcome to the shop!' });
      assert.deepEqual(menu.blocks, [
        { type: 'section', text: { type: 'mrkdwn', text: 'What do you need?' } },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'button_0', text: { type: 'plain_text', text: 'Catalogue', emoji: true }, value: B_CARDS },
            { type: 'button', action_id: 'button_1', text: { type: 'plain_text', text: 'Files', emoji: true }, value: B_MEDIA },
            { type: 'button', action_id: 'link_2', text: { type: 'plain_text', text: 'Our site', emoji: true }, url: 'https://example.com/' },
          ],
        },
      ]);
      assert.equal(menu.text, 'What do you need?');
      const values = (await server.client.get(`/custom/values?userid=${encodeURIComponent(`slack:${TEAM}:${channel}`)}`, { token: tenant.botToken })).body;
      assert.equal(values.Context.Channel, 'slack');
      assert.equal(Object.fromEntries(values.Variables.map((v: any) => [v.Name, v.Value])).slack_user, 'U0ALICE01');
    });

    test('a click on /interactive runs the button; a carousel is one message a card; an unknown value runs the fallback', async () => {
      const channel = newDm();
      await say(channel, 'hi');
      await welcomed(channel);
      assert.equal((await click(ev.click(channel, B_CARDS))).status, 200);
      await slack.waitFor(() => slack.postsTo(channel).length >= 4, 'the carousel');
      const [cat, dog] = slack.postsTo(channel).slice(2);
      assert.deepEqual(cat.blocks, [
        { type: 'image', image_url: IMAGE, alt_text: 'Cat' },
        { type: 'section', text: { type: 'mrkdwn', text: '*Cat*\nA fine cat' } },
        { type: 'actions', elements: [{ type: 'button', action_id: 'button_0', text: { type: 'plain_text', text: 'Take the cat', emoji: true }, value: C_CAT }] },
      ]);
      assert.deepEqual(
        dog.blocks.map((b: any) => b.type),
        ['section', 'actions'],
      );
      await click(ev.click(channel, C_CAT));
      await slack.waitFor(() => slack.postsTo(channel).length >= 5, 'the sizes');
      const sizes = slack.postsTo(channel)[4];
      assert.deepEqual(
        sizes.blocks[1].elements.map((e: any) => e.value ?? e.url),
        [...SIZES.map((s) => s.id), 'https://example.com/sizes'],
      );
      await click(ev.click(channel, SIZES[3].id));
      await slack.waitFor(() => slack.textsTo(channel).includes('Size XL it is.'), 'the size button ran');
      await click(ev.click(channel, 'not-a-button-any-more'));
      await slack.waitFor(() => slack.textsTo(channel).some((t) => t.startsWith('You said')), 'the fallback');
    });

    test('a mention in a channel is answered in its thread, without the mention; a mention inside a thread keeps that thread', async () => {
      const channel = `C0${process.pid}PUB`;
      const mention = ev.mention(channel, `<@${BOT_USER}> what do you sell?`);
      await event(ev.callback(mention));
      await welcomed(channel, mention.ts);
      const values = (await server.client.get(`/custom/values?userid=${encodeURIComponent(`slack:${TEAM}:${channel}:${mention.ts}`)}`, { token: tenant.botToken })).body;
      assert.equal(values.Context.Channel, 'slack');
      await event(ev.callback(ev.mention(channel, `<@${BOT_USER}> anything else`, mention.ts)));
      await slack.waitFor(() => slack.textsTo(channel, mention.ts).includes('You said: anything else'), 'the answer in the thread');
      await click(ev.click(channel, C_CAT, mention.ts));
      await slack.waitFor(() => slack.textsTo(channel, mention.ts).includes('Which size?'), 'the click answered in the thread');
      assert.equal(slack.postsTo(channel).length, 0, 'nothing was posted outside the thread');
    });

    test('bot messages, edits and unknown event kinds run nothing; a file shared is [file]', async () => {
      const channel = newDm();
      await say(channel, 'hi');
      await welcomed(channel);
      const quiet = [
        ev.dm(channel, 'from a bot', { bot_id: 'B0OTHER01' }),
        ev.dm(channel, 'edited', { subtype: 'message_changed' }),
        ev.dm(channel, 'my own echo', { user: BOT_USER }),
        { type: 'reaction_added', user: 'U0ALICE01', reaction: 'thumbsup', item: { type: 'message', channel, ts: '1.2' } },
        ev.dm(channel, 'in a channel, not a mention', { channel_type: 'channel' }),
      ];
      for (const e of quiet) assert.equal((await event(ev.callback(e))).status, 200);
      assert.equal((await event({ type: 'app_rate_limited', team_id: TEAM, minute_rate_limited: 1518467820 })).status, 200);
      assert.equal((await event(ev.callback(ev.dm(channel, 'another workspace'), undefined, 'T0OTHER99'))).status, 200);
      assert.equal((await event(ev.callback(ev.dm(channel, 'a person')))).status, 200);
      await event(ev.callback(ev.dm(channel, '', { subtype: 'file_share', files: [{ id: 'F1', name: 'a.pdf' }] })));
      await slack.waitFor(() => slack.textsTo(channel).includes('You said: [file]'), 'the file share');
      assert.deepEqual(slack.textsTo(channel).slice(2), ['You said: a person', 'You said: [file]'], 'only a person of the same workspace ran');
    });

    test('forged, stale and malformed requests: 401 SIGNATURE_INVALID or 400, nothing stored', async () => {
      const channel = newDm();
      const body = ev.callback(ev.dm(channel, 'let me in'));
      const raw = JSON.stringify(body);
      const now = Math.floor(Date.now() / 1000);
      const forged: SignedRequest[] = [
        signed(raw, 'application/json', { secret: 'another-signing-secret' }),
        signed(raw, 'application/json', { at: now - 6 * 60 }),
        signed(raw, 'application/json', { at: now + 6 * 60 }),
        { ...signed(raw, 'application/json'), raw: raw.replace('let me in', 'let me out') },
        { raw, contentType: 'application/json', headers: { 'x-slack-request-timestamp': String(now), 'x-slack-signature': `v1=${'0'.repeat(64)}` } },
        { raw, contentType: 'application/json', headers: { 'x-slack-signature': signed(raw, 'application/json').headers['x-slack-signature'] } },
      ];
      for (const request of forged) {
        const res = await deliver(webhookPath, request);
        assert.deepEqual([res.status, res.body.Code], [401, 'SIGNATURE_INVALID'], JSON.stringify(request.headers));
      }
      const replay = await click(ev.click(channel, B_CARDS), { at: now - 301 });
      assert.deepEqual([replay.status, replay.body.Code], [401, 'SIGNATURE_INVALID']);
      const malformed = await deliver(webhookPath, signed('{"type": "event_callback", ', 'application/json'));
      assert.deepEqual([malformed.status, malformed.body.Code], [400, 'INVALID_JSON']);
      const noPayload = await deliver(interactivePath, signed('foo=bar', 'application/x-www-form-urlencoded'));
      assert.deepEqual([noPayload.status, noPayload.body.Code], [400, 'INVALID_JSON']);
      const big = await deliver(webhookPath, signed(JSON.stringify({ ...body, pad: 'x'.repeat(2_000_000) }), 'application/json'));
      assert.equal(big.status, 413);
      assert.equal((await deliver(`${webhookPath}/elsewhere`, signed(raw, 'application/json'))).status, 404);
      assert.equal((await deliver('/channels/slack/AAAAAAAAAAAAAAAAAAAAAAAA', signed(raw, 'application/json'))).status, 404);
      assert.equal((await stateOf(`slack:${TEAM}:${channel}`)).status, 404, 'no conversation was made');
      const db = await openRaw(database);
      try {
        assert.deepEqual(await db.all('SELECT update_key FROM channel_updates WHERE update_key = $1', [body.event_id]), []);
      } finally {
        await db.close();
      }
    });

    test('the same event_id (Slack retries with X-Slack-Retry-Num) runs once', async () => {
      const channel = newDm();
      await say(channel, 'hi');
      await welcomed(channel);
      const again = ev.callback(ev.dm(channel, 'only once ✓'));
      assert.deepEqual(
        (await Promise.all([event(again), event(again, { retry: 1 })])).map((r) => r.status),
        [200, 200],
      );
      assert.equal((await event(again, { retry: 2 })).status, 200);
      await slack.waitFor(() => slack.textsTo(channel).includes('You said: only once ✓'), 'the fallback');
      const history = await chatOk(server, tenant.botToken, { UserId: `slack:${TEAM}:${channel}`, Command: 'READY', Channel: 'slack' });
      assert.equal(history.Parts.filter((p: any) => p.Type === 19 && p.Text === 'only once ✓').length, 1);
      assert.equal(slack.textsTo(channel).filter((t) => t === 'You said: only once ✓').length, 1);
    });

    test('an operator takes over and writes; CHANNEL injections as BOT and OPERATOR are delivered', async () => {
      const channel = newDm();
      const user = `slack:${TEAM}:${channel}`;
      await say(channel, 'hi');
      await welcomed(channel);
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Your order shipped.' }, { CHANNEL: 'slack', DIRECTION: 'BOT' });
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'Any questions?' }, { CHANNEL: 'Slack', DIRECTION: 'OPERATOR' });
      await slack.waitFor(() => slack.textsTo(channel).length >= 4, 'the injections');
      const email = `op${process.pid}${dm}@example.com`;
      await addOperator(server.client, tenant.accountId, email);
      const operator = consoleClient(server.client, await signIn(server.client, email));
      const where = operator.conversationPath(await botIdOf(server, tenant.botKey), user);
      assert.equal((await operator.post(`${where}/takeover`)).status, 200);
      assert.equal((await operator.post(`${where}/messages`, { Text: 'Hello, this is Ann.' })).status, 200);
      await slack.waitFor(() => slack.textsTo(channel).includes('Hello, this is Ann.'), 'the operator message');
      assert.deepEqual(slack.textsTo(channel).slice(2), ['Your order shipped.', 'Any questions?', 'Hello, this is Ann.']);
    });

    test('media: an image block, files as links, a delay as a pause before the next message, long texts split', async () => {
      const channel = newDm();
      await say(channel, 'hi');
      await welcomed(channel);
      await click(ev.click(channel, B_MEDIA));
      await slack.waitFor(() => slack.postsTo(channel).length >= 6, 'the media');
      const [image, file, ...long] = slack.postsTo(channel).slice(2);
      assert.deepEqual(image.blocks, [
        { type: 'section', text: { type: 'mrkdwn', text: 'A picture' } },
        { type: 'image', image_url: IMAGE, alt_text: 'A picture' },
      ]);
      assert.equal(file.text, 'Terms\nhttps://cdn.example.com/terms.pdf');
      const at = slack.calls.filter((c) => c.args.channel === channel).map((c) => c.at);
      assert.ok(at[3] - at[2] >= 380, `the file came ${at[3] - at[2]} ms after the image`);
      assert.deepEqual(
        long.map((p) => p.text.length),
        [4000, 500],
      );
    });

    test('429 with Retry-After, then 500, then success: delivered once and in order; LastError tells; a hang does not slow the answer', async () => {
      const channel = newDm();
      slack.script.push('rate-limit', 'server-error');
      const started = Date.now();
      await say(channel, 'hi');
      await welcomed(channel);
      assert.ok(Date.now() - started >= 1000, 'Retry-After was honoured');
      const attempts = slack.calls.filter((c) => c.args.channel === channel).map((c) => [c.status, c.args.text]);
      assert.deepEqual(attempts, [
        [429, 'Welcome to the shop!'],
        [500, 'Welcome to the shop!'],
        [200, 'Welcome to the shop!'],
        [200, 'What do you need?'],
      ]);
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'slack');
      assert.equal(listed.LastError.replace(/^\S+ /, ''), 'Slack chat.postMessage: 500');
      slack.script.push('hang');
      assert.equal((await say(newDm(), 'hi')).status, 200);
      await stillHangingAfterAnswer(slack.hanging);
    });

    test('disconnecting erases the credentials; both webhook paths answer 404', async () => {
      const other = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${other.botKey}/channels/slack`, { BotToken: SLACK_BOT_TOKEN, SigningSecret: 'second-secret' }, { token: other.accountToken });
      assert.equal(connected.status, 200, connected.text);
      assert.equal((await server.client.delete(`/bots/${other.botKey}/channels/slack`, { token: other.accountToken })).status, 204);
      const raw = JSON.stringify(ev.callback(ev.dm(newDm(), 'hi')));
      for (const url of [connected.body.WebhookUrl, connected.body.InteractivityUrl]) {
        assert.equal((await deliver(new URL(url).pathname, signed(raw, 'application/json', { secret: 'second-secret' }))).status, 404);
      }
      assert.equal((await server.running.store.channels.get((await server.running.store.bots.byApiKey(other.botKey))!.id, 'slack'))!.credentials, null);
    });
  });
}
