// SMS through Twilio (channels-more.md) end to end: the real server, its webhook driven with
// Twilio's own form-encoded requests signed with the Auth Token over the URL and the sorted fields,
// and a REST API double that checks every Messages.json call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chatOk, variablesOf } from '../support/chat-kit.js';
import { openRaw } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { stillHangingAfterAnswer } from '../support/double-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { IMAGE, shopBot, SIZES } from '../support/messenger-kit.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { ACCOUNT_SID, AUTH_TOKEN, FROM, SmsMessages, twilioSignature } from '../support/sms-kit.js';
import { TwilioDouble } from '../support/twilio-double.js';

const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const MENU = 'What do you need?\n1. Catalogue\n2. Files\nOur site: https://example.com/';

for (const kind of databaseKinds()) {
  describe(`SMS channel through Twilio (${kind})`, () => {
    let twilio: TwilioDouble;
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let webhookUrl: string;
    let phone = 2_000_000 + (process.pid % 1_000_000) * 10;
    const sms = new SmsMessages();

    before(async () => {
      twilio = await TwilioDouble.start(ACCOUNT_SID, AUTH_TOKEN, FROM);
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, { COLLOQUY_TWILIO_API_URL: twilio.url });
      tenant = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/sms`, { AccountSid: ACCOUNT_SID, AuthToken: AUTH_TOKEN, From: FROM }, { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      assert.deepEqual(connected.body, { Channel: 'sms', Enabled: true, WebhookUrl: connected.body.WebhookUrl, Account: FROM });
      webhookUrl = connected.body.WebhookUrl;
    });
    after(async () => {
      twilio.assertNoViolations();
      await twilio.close();
      await server.close();
      await database.drop();
    });

    const newPhone = () => `+1415${String(++phone).padStart(7, '0')}`;
    const post = (fields: Record<string, string>, signature: string | null = twilioSignature(webhookUrl, fields), url = webhookUrl) =>
      server.client.post(new URL(url).pathname, undefined, {
        raw: new URLSearchParams(fields).toString(),
        contentType: 'application/x-www-form-urlencoded',
        headers: signature === null ? {} : { 'x-twilio-signature': signature },
      });
    const text = (from: string, body: string, extra: Record<string, string> = {}) => post(sms.message(from, body, extra));
    const welcomed = (from: string) => twilio.waitFor(() => twilio.bodiesTo(from).length >= 2, 'the welcome');

    test("connect reads the account; refused credentials are 400 CHANNEL_REJECTED with Twilio's words; malformed fields 400", async () => {
      const account = twilio.calls.find((c) => c.path === `/2010-04-01/Accounts/${ACCOUNT_SID}.json`);
      assert.equal(account?.status, 200);
      assert.match(new URL(webhookUrl).pathname, /^\/channels\/sms\/[A-Za-z0-9_-]{22,}$/);
      const other = await createTenant(server.client, shopBot());
      const put = (body: unknown) => server.client.put(`/bots/${other.botKey}/channels/sms`, body, { token: other.accountToken });
      const refused = await put({ AccountSid: ACCOUNT_SID, AuthToken: 'wrong-token', From: FROM });
      assert.deepEqual([refused.status, refused.body.Code, refused.body.Description], [400, 'CHANNEL_REJECTED', '401 (20003) Authenticate']);
      const missing = await put({ AccountSid: ACCOUNT_SID, From: FROM });
      assert.deepEqual([missing.status, missing.body.Code, missing.body.Field], [400, 'MISSING_FIELD', 'AuthToken']);
      for (const bad of [
        { AccountSid: 'AC123', AuthToken: AUTH_TOKEN, From: FROM },
        { AccountSid: ACCOUNT_SID, AuthToken: AUTH_TOKEN, From: '555-1234' },
      ]) {
        const res = await put(bad);
        assert.deepEqual([res.status, res.body.Code], [400, 'INVALID_REQUEST'], JSON.stringify(bad));
      }
      const list = await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken });
      assert.deepEqual(
        list.body.Result.find((c: any) => c.Channel === 'sms'),
        { Channel: 'sms', Enabled: true, WebhookUrl: webhookUrl, Account: FROM, LastInboundAt: null, LastError: null },
      );
      assert.ok(!list.text.includes(AUTH_TOKEN));
    });

    test('a first SMS starts the conversation, answered with an empty TwiML; buttons are numbered lines, links their URL', async () => {
      const from = newPhone();
      const res = await text(from, 'hello');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/xml/);
      assert.equal(res.text, TWIML);
      await welcomed(from);
      assert.deepEqual(twilio.bodiesTo(from), ['Welcome to the shop!', MENU]);
      const variables = await variablesOf(server, tenant.botToken, `sms:${from}`);
      assert.deepEqual([variables.channel, variables.phone], ['sms', from]);
    });

    test("a number or an option's exact text is the button; numbering runs on across cards; anything else is a text", async () => {
      const from = newPhone();
      await text(from, 'hi');
      await welcomed(from);
      await text(from, ' 1 ');
      await twilio.waitFor(() => twilio.bodiesTo(from).length >= 4, 'the carousel');
      assert.deepEqual(twilio.bodiesTo(from).slice(2), [`Cat\nA fine cat\n${IMAGE}\n1. Take the cat`, 'Dog\nRead more: https://example.com/dog']);
      await text(from, 'take the CAT');
      await twilio.waitFor(() => twilio.bodiesTo(from).length >= 5, 'the sizes');
      assert.deepEqual(twilio.bodiesTo(from)[4].split('\n'), ['Which size?', ...SIZES.map((s, i) => `${i + 1}. Size ${s.label} please, thank you`), 'Size guide: https://example.com/sizes']);
      await text(from, '4');
      await twilio.waitFor(() => twilio.bodiesTo(from).includes('Size XL it is.'), 'option 4');
      await text(from, '4');
      await twilio.waitFor(() => twilio.bodiesTo(from).includes('You said: 4'), 'a number with no options listed is a text');
    });

    test('media: the URL in the text; a delay spaces the messages; long texts split at 1,600', async () => {
      const from = newPhone();
      await text(from, 'hi');
      await welcomed(from);
      await text(from, '2');
      await twilio.waitFor(() => twilio.bodiesTo(from).length >= 7, 'the media');
      const [image, file, ...long] = twilio.bodiesTo(from).slice(2);
      assert.equal(image, `A picture\n${IMAGE}`);
      assert.equal(file, 'Terms\nhttps://cdn.example.com/terms.pdf');
      assert.deepEqual(
        long.map((b) => b.length),
        [1600, 1600, 1300],
      );
      const at = twilio.calls.filter((c) => c.form.To === from).map((c) => c.at);
      assert.ok(at[3] - at[2] >= 380, `the file came ${at[3] - at[2]} ms after the image`);
      await text(from, '', { NumMedia: '1', MediaContentType0: 'image/jpeg', MediaUrl0: 'https://api.twilio.com/2010-04-01/Accounts/x/Messages/y/Media/z' });
      await twilio.waitFor(() => twilio.bodiesTo(from).includes('You said: [image]'), 'the MMS');
    });

    test('forged signatures (another token, another URL, a changed field, none) are 401; status callbacks and other accounts run nothing', async () => {
      const from = newPhone();
      const fields = sms.message(from, 'let me in');
      for (const signature of [null, twilioSignature(webhookUrl, fields, 'another-auth-token'), twilioSignature(`${webhookUrl}x`, fields), 'not base64 at all']) {
        const res = await post(fields, signature);
        assert.deepEqual([res.status, res.body.Code], [401, 'SIGNATURE_INVALID'], String(signature));
      }
      const changed = await post({ ...fields, Body: 'let me out' }, twilioSignature(webhookUrl, fields));
      assert.equal(changed.status, 401);
      const json = await server.client.post(new URL(webhookUrl).pathname, fields, { headers: { 'x-twilio-signature': twilioSignature(webhookUrl, fields) } });
      assert.equal(json.status, 401, 'Twilio signs forms only');
      assert.equal((await server.client.get(`/custom/state?userid=${encodeURIComponent(`sms:${from}`)}`, { token: tenant.botToken })).status, 404);
      const raw = await openRaw(database);
      try {
        assert.deepEqual(await raw.all('SELECT update_key FROM channel_updates WHERE update_key = $1', [fields.MessageSid]), []);
      } finally {
        await raw.close();
      }
      const status = await post({ MessageSid: sms.nextSid(), MessageStatus: 'delivered', AccountSid: ACCOUNT_SID, From: FROM, To: from });
      assert.deepEqual([status.status, status.text], [200, TWIML]);
      assert.equal((await text(from, 'other account', { AccountSid: `AC${'f'.repeat(32)}` })).status, 200);
      assert.equal((await server.client.get(`/custom/state?userid=${encodeURIComponent(`sms:${from}`)}`, { token: tenant.botToken })).status, 404);
    });

    test("the same MessageSid twice runs once; STOP and START (Twilio's OptOutType) set the broadcast opt-out", async () => {
      const from = newPhone();
      await text(from, 'hi');
      await welcomed(from);
      const again = sms.message(from, 'only once');
      assert.deepEqual(
        (await Promise.all([post(again), post(again)])).map((r) => r.status),
        [200, 200],
      );
      await twilio.waitFor(() => twilio.bodiesTo(from).includes('You said: only once'), 'the fallback');
      const history = await chatOk(server, tenant.botToken, { UserId: `sms:${from}`, Command: 'READY', Channel: 'sms' });
      assert.equal(history.Parts.filter((p: any) => p.Type === 19 && p.Text === 'only once').length, 1);
      await text(from, 'Quit', { OptOutType: 'STOP' });
      assert.ok(await waitForVariable(from, 'true'), 'opted out');
      await text(from, 'unstop', { OptOutType: 'START' });
      assert.ok(await waitForVariable(from, 'false'), 'opted in again');
      await twilio.waitFor(() => twilio.bodiesTo(from).includes('You said: unstop'), 'the last answer');
    });

    const waitForVariable = async (from: string, value: string) => {
      for (let i = 0; i < 100; i++) {
        if ((await variablesOf(server, tenant.botToken, `sms:${from}`)).broadcast_opt_out === value) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    };

    test('429 with Retry-After, then 500, then success: once and in order; LastError tells; a hang does not slow the answer', async () => {
      const from = newPhone();
      twilio.script.push('rate-limit', 'server-error');
      const started = Date.now();
      await text(from, 'hi');
      await welcomed(from);
      assert.ok(Date.now() - started >= 1000, 'Retry-After was honoured');
      assert.deepEqual(
        twilio.calls.filter((c) => c.form.To === from).map((c) => [c.status, c.form.Body]),
        [
          [429, 'Welcome to the shop!'],
          [500, 'Welcome to the shop!'],
          [201, 'Welcome to the shop!'],
          [201, MENU],
        ],
      );
      const listed = (await server.client.get(`/bots/${tenant.botKey}/channels`, { token: tenant.accountToken })).body.Result.find((c: any) => c.Channel === 'sms');
      assert.equal(listed.LastError.replace(/^\S+ /, ''), 'Twilio Messages.json: 500 (20500) Internal Server Error');
      twilio.script.push('hang');
      assert.equal((await text(newPhone(), 'hi')).status, 200);
      await stillHangingAfterAnswer(twilio.hanging);
    });

    test('disconnecting erases the credentials; the webhook answers 404', async () => {
      const other = await createTenant(server.client, shopBot());
      const connected = await server.client.put(`/bots/${other.botKey}/channels/sms`, { AccountSid: ACCOUNT_SID, AuthToken: AUTH_TOKEN, From: FROM }, { token: other.accountToken });
      assert.equal(connected.status, 200);
      assert.equal((await server.client.delete(`/bots/${other.botKey}/channels/sms`, { token: other.accountToken })).status, 204);
      const fields = sms.message(newPhone(), 'hi');
      assert.equal((await post(fields, twilioSignature(connected.body.WebhookUrl, fields), connected.body.WebhookUrl)).status, 404);
      assert.equal((await server.running.store.channels.get((await server.running.store.bots.byApiKey(other.botKey))!.id, 'sms'))!.credentials, null);
    });
  });
}
