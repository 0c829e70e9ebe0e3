// The demo that `npm start` seeds (README "Two commands"): its bot answers from its FAQ before its
// fallback, names the source, and still falls back on what the FAQ does not cover.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedDemo } from '../../src/demo.js';
import { chatOk } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`the demo (${kind})`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startTestServer(kind);
      const keys = await seedDemo(server.running.services);
      assert.ok(keys);
      const res = await server.client.post('/authorization/integration', { AccountAPIKey: keys.accountKey, BotAPIKey: keys.botKey, BotAPISecret: keys.botSecret });
      assert.equal(res.status, 200, res.text);
      token = res.body.token;
    });
    after(() => server.close());

    test('the demo bot answers from its FAQ with the source named, and falls back on the rest', async () => {
      await chatOk(server, token, { UserId: 'ann' });
      const answered = await chatOk(server, token, { UserId: 'ann', Text: 'do you ship to norway?' });
      assert.deepEqual(
        answered.Parts.map((p: any) => p.Text),
        ['Do you ship to Norway?\nYes. We ship to every country of the EU and EEA, Norway included; delivery takes 3 to 5 working days.\n\nSources: ACME support FAQ'],
      );
      const missed = await chatOk(server, token, { UserId: 'ann', Text: 'what is the capital of peru' });
      assert.deepEqual(
        missed.Parts.map((p: any) => p.Text),
        ["Sorry, I did not get that. Type 'restart' to see the menu."],
      );
    });

    test('a database that has an account gets no second demo', async () => {
      assert.equal(await seedDemo(server.running.services), null);
    });
  });
}
