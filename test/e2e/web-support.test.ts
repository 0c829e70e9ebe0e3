// The web channel's pieces for issue 27's widget: a message id that runs once however often the
// widget sends it again, and a resumed history that says when each part was said.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buttonCommand, summary, ORDER_QUESTION } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sendWeb, setWeb, startWeb, web, webKeyOf } from '../support/web-kit.js';

for (const kind of databaseKinds()) {
  describe(`web channel: what the widget needs to keep its place (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    let key: string;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
      key = await webKeyOf(server.client, support);
      await setWeb(server.client, support, { enabled: true, allowedOrigins: ['*'] });
    });
    after(() => server.close());

    const userTexts = (reply: any) => reply.Parts.filter((p: any) => p.Type === 19).map((p: any) => p.Text);

    test('a message sent again with the same MessageId runs once; the second answer is the history, Duplicate: true', async () => {
      const started = await startWeb(server.client, key);
      const track = buttonCommand(started.Parts, 'Track an order');
      const first = await sendWeb(server.client, key, { UserId: started.UserId, Command: track, MessageId: 'm-00000001' });
      assert.deepEqual(summary(first.Parts), [ORDER_QUESTION]);
      assert.equal(first.Duplicate, undefined);
      const sent = await sendWeb(server.client, key, { UserId: started.UserId, Text: '123456', MessageId: 'm-00000002' });
      assert.equal(sent.Parts[0].Text, 'Order 123456 is on its way.');
      const again = await sendWeb(server.client, key, { UserId: started.UserId, Text: '123456', MessageId: 'm-00000002' });
      assert.equal(again.Duplicate, true);
      assert.deepEqual(userTexts(again), ['Track an order', '123456']);
      // a new id is a new message
      const other = await sendWeb(server.client, key, { UserId: started.UserId, Text: 'no', MessageId: 'm-00000003' });
      assert.equal(other.Duplicate, undefined);
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.deepEqual(userTexts(resumed), ['Track an order', '123456', 'no']);
    });

    test('a MessageId that is too short, too long or not [A-Za-z0-9_-]: 400 INVALID_REQUEST, nothing runs', async () => {
      const started = await startWeb(server.client, key);
      for (const MessageId of ['short', 'x'.repeat(65), 'has space in it', 'semi;colon1']) {
        const res = await web(server.client, 'POST', key, 'messages', { UserId: started.UserId, Text: 'hi', MessageId });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.deepEqual(userTexts(resumed), []);
    });

    test('a resumed conversation says when each part was said (Times) and when its control state changed (StateSince)', async () => {
      const before = Date.now();
      const started = await startWeb(server.client, key);
      await sendWeb(server.client, key, { UserId: started.UserId, Text: 'hello' });
      const resumed = await startWeb(server.client, key, { UserId: started.UserId });
      assert.equal(resumed.Times.length, resumed.Parts.length);
      for (const at of resumed.Times) assert.ok(Date.parse(at) >= before - 1000 && Date.parse(at) <= Date.now(), at);
      assert.ok(resumed.Times.every((at: string, i: number) => i === 0 || at >= resumed.Times[i - 1]), JSON.stringify(resumed.Times));
      assert.ok(Date.parse(resumed.StateSince) <= Date.parse(resumed.Times[0]), resumed.StateSince);
    });
  });
}
