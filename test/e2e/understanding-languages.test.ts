// understanding.md "Intents and entities", issue 22: nlp.language beyond English. A small bot in
// each language routes a paraphrase it was not taught to its intent, and an unrelated sentence in
// that language to no intent (the language's built-in out-of-scope set); an unknown language is
// refused at save.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { LANGUAGE_CASES, type LanguageCase } from '../fixtures/language-bots.js';

const botIn = (c: LanguageCase) => ({
  ...botFile([
    { name: 'Start', actions: [text('…')] },
    { name: 'Fallback', fallback: true, actions: [text('?')] },
  ]),
  nlp: { language: c.language, intents: c.intents },
});

for (const kind of databaseKinds()) {
  describe(`understanding: languages (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(() => server.close());

    for (const c of LANGUAGE_CASES) {
      test(`${c.language}: a paraphrase reaches its intent, an unrelated sentence none`, async () => {
        const tenant = await createTenant(server.client, botIn(c));
        const parse = (t: string) => server.client.post(`/bots/${tenant.botKey}/nlp/parse`, { Text: t }, { token: tenant.accountToken });
        const [intent, paraphrase] = c.paraphrase;
        const right = await parse(paraphrase);
        assert.equal(right.status, 200);
        assert.equal(right.body.Intent, intent, JSON.stringify(right.body));
        assert.ok(right.body.Score >= 0.7, JSON.stringify(right.body));
        const unrelated = await parse(c.unrelated);
        assert.equal(unrelated.status, 200);
        assert.equal(unrelated.body.Intent, null, JSON.stringify(unrelated.body));
        assert.ok(unrelated.body.Score < 0.7, JSON.stringify(unrelated.body));
      });
    }

    test('a language without a package and an out-of-scope set is refused at save: 400 INVALID_BOT at $.nlp.language', async () => {
      const tenant = await createTenant(server.client);
      const count = async () => (await server.client.get('/bots', { token: tenant.accountToken })).body.Result.length;
      const before = await count();
      for (const language of ['xx', 'sv', 'EN', '']) {
        const res = await server.client.post('/bots', botIn({ ...LANGUAGE_CASES[0], language }), { token: tenant.accountToken });
        assert.equal(res.status, 400, language);
        assert.equal(res.body.Code, 'INVALID_BOT', language);
        assert.deepEqual(
          res.body.Problems.map((p: { Path: string }) => p.Path),
          ['$.nlp.language'],
          language,
        );
      }
      assert.equal(await count(), before);
    });
  });
}
