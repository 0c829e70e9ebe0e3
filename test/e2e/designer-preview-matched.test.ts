// Issue 36 "No hidden triggers": each preview turn's reply says what took the user text (a bot-
// level keyword trigger, an intent trigger with its score, a behaviour's regex trigger, the
// waiting input, the fallback with the best intent below the threshold) and where it went. Only
// the preview says it: a real channel's reply to the same texts carries no such field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const REPLY_FIELDS = ['ControlType', 'Creation', 'EnableUserChat', 'Parts', 'UserId'];

for (const kind of databaseKinds()) {
  describe(`preview explains what took each text (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, supportBot());
    });
    after(() => server.close());

    const preview = (body: unknown) => server.client.post(`/bots/${tenant.botKey}/preview/chat`, body, { token: tenant.accountToken });
    /** The live model's score for a text, two decimals (the draft is the published version). */
    const scoreOf = async (text: string) => {
      const parsed = await server.client.post(`/bots/${tenant.botKey}/nlp/parse`, { Text: text }, { token: tenant.accountToken });
      assert.equal(parsed.status, 200, parsed.text);
      return { intent: parsed.body.Intent as string | null, score: Math.round(parsed.body.Score * 100) / 100 };
    };

    test('a keyword trigger, an intent trigger with its score, the waiting input and the fallback', async () => {
      const started = await preview({ UserId: 'm-1', Command: 'RESET' });
      assert.equal(started.status, 200, started.text);
      assert.equal(started.body.Matched, undefined, 'a start without text is not explained');

      const keyword = await preview({ UserId: 'm-1', Text: 'operator' });
      assert.equal(keyword.status, 200, keyword.text);
      assert.deepEqual(keyword.body.Matched, { Kind: 'keyword', Name: 'human|agent|operator', Trigger: { Behaviour: null, Index: 0 }, Behaviour: 'Escalation', Interaction: 'Ask For Human' });

      await preview({ UserId: 'm-2', Command: 'RESET' });
      const text = 'where is my parcel';
      const expected = await scoreOf(text);
      assert.equal(expected.intent, 'track_order');
      const intent = await preview({ UserId: 'm-2', Text: text });
      assert.deepEqual(intent.body.Matched, { Kind: 'intent', Name: 'track_order', Score: expected.score, Trigger: { Behaviour: null, Index: 2 }, Behaviour: 'Orders', Interaction: 'Ask Number' });

      const answer = await preview({ UserId: 'm-2', Text: '123456' });
      assert.deepEqual(answer.body.Matched, { Kind: 'input', Name: '', BestIntent: await bestOf('123456'), Behaviour: 'Orders', Interaction: 'Lookup' });

      await preview({ UserId: 'm-3', Command: 'RESET' });
      const nonsense = 'zzq blorf quux';
      const fallback = await preview({ UserId: 'm-3', Text: nonsense });
      assert.equal((await scoreOf(nonsense)).intent, null, 'no intent reaches the threshold');
      assert.deepEqual(fallback.body.Matched, { Kind: 'fallback', Name: '', BestIntent: await bestOf(nonsense), Behaviour: 'Main', Interaction: 'Not Understood' });
    });

    /** The live model's best candidate, listed even below the threshold (understanding.md), two decimals. */
    const bestOf = async (text: string) => {
      const best = (await server.client.post(`/bots/${tenant.botKey}/nlp/parse`, { Text: text }, { token: tenant.accountToken })).body.Alternatives[0];
      assert.equal(typeof best?.Intent, 'string', 'the model names a best intent');
      return { Name: best.Intent, Score: Math.round(best.Score * 100) / 100 };
    };

    test('a real channel answers the same texts without the field: its members are the five of the API', async () => {
      for (const [userId, text] of [
        ['r-1', 'operator'],
        ['r-2', 'where is my parcel'],
      ]) {
        await server.client.post('/custom/chat', { UserId: userId, Command: 'RESET' }, { token: tenant.botToken });
        const real = await server.client.post('/custom/chat', { UserId: userId, Text: text }, { token: tenant.botToken });
        assert.equal(real.status, 200, real.text);
        assert.deepEqual(Object.keys(real.body).sort(), REPLY_FIELDS);
        assert.equal(real.text.includes('Matched'), false);
        assert.equal(real.text.includes('"Source"'), false);
      }
    });
  });
}
