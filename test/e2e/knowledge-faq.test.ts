// knowledge.md "FAQ sources" (issue 37 item 7): an FAQ keeps its pairs as written. GET returns them
// as `Faq` in order; a PUT of the pairs edited (one changed, one gone, one moved, one added)
// replaces the FAQ and its passages; a bad pair (empty, over-long, one too many) is refused by its
// number with a stable Code and changes nothing; another kind keeps no pairs; a full clone copies
// them; an FAQ over 1 MiB (indexed after the 201) keeps them too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, base, search, settled, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SHOP_FAQ = [
  { Question: '  Do you repair e-bikes?  ', Answer: 'Yes, every make, in two days.\n' },
  { Question: 'Can I rent a bike?', Answer: 'City bikes cost 15 euros a day.' },
  { Question: 'Do you sell helmets?', Answer: 'Helmets from 40 euros, fitted in the shop.' },
];

for (const kind of databaseKinds()) {
  describe(`FAQ pairs (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());
    const read = async (id: string, t = tenant) => {
      const res = await server.client.get(`${base(t)}/${id}`, { token: t.accountToken });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const put = (id: string, body: unknown) => server.client.put(`${base(tenant)}/${id}`, body, { token: tenant.accountToken });

    test('GET returns the pairs as written (trimmed), in order, beside the passages', async () => {
      const created = await addSource(server, tenant, { Name: 'Shop FAQ', Faq: SHOP_FAQ });
      const one = await read(created.SourceId);
      assert.deepEqual(one.Faq, [
        { Question: 'Do you repair e-bikes?', Answer: 'Yes, every make, in two days.' },
        { Question: 'Can I rent a bike?', Answer: 'City bikes cost 15 euros a day.' },
        { Question: 'Do you sell helmets?', Answer: 'Helmets from 40 euros, fitted in the shop.' },
      ]);
      assert.deepEqual(
        one.Passages.map((p: any) => p.Text),
        ['Do you repair e-bikes?\nYes, every make, in two days.', 'Can I rent a bike?\nCity bikes cost 15 euros a day.', 'Do you sell helmets?\nHelmets from 40 euros, fitted in the shop.'],
      );
    });

    test('a PUT of the edited pairs replaces the FAQ: the pairs and passages are the new ones, in their new order', async () => {
      const created = await addSource(server, tenant, { Name: 'Edited FAQ', Faq: SHOP_FAQ });
      const edited = [
        { Question: 'Can I rent a bike?', Answer: 'City bikes cost 18 euros a day, e-bikes 35.' },
        { Question: 'Do you repair e-bikes?', Answer: 'Yes, every make, in two days.' },
        { Question: 'Is there parking?', Answer: 'Two spaces behind the workshop.' },
      ];
      const res = await put(created.SourceId, { Name: 'Edited FAQ', Faq: edited });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.Status, res.body.Chunks], ['ready', 3]);
      const one = await read(created.SourceId);
      assert.deepEqual(one.Faq, edited);
      assert.deepEqual(
        one.Passages.map((p: any) => p.Heading),
        ['Can I rent a bike?', 'Do you repair e-bikes?', 'Is there parking?'],
      );
      assert.deepEqual(
        (await search(server, tenant, 'helmets')).filter((p) => p.SourceId === created.SourceId),
        [],
      );
      assert.equal((await search(server, tenant, 'parking workshop'))[0].SourceId, created.SourceId);
    });

    test('bad pairs are refused by their number with a stable Code, and the FAQ is unchanged', async () => {
      const created = await addSource(server, tenant, { Name: 'Kept FAQ', Faq: SHOP_FAQ });
      const before = await read(created.SourceId);
      const pair = (Question: string, Answer: string) => ({ Question, Answer });
      const ok = pair('Do you open on Sunday?', 'No, Monday to Saturday.');
      const cases: Array<[string, unknown[], string, string, Record<string, unknown>]> = [
        ['an empty question', [ok, pair('  ', 'An answer without its question.')], 'INVALID_DOCUMENT', 'Question 2 is empty: write the question its answer belongs to.', { Field: 'Faq[1].Question' }],
        ['an empty answer', [ok, ok, pair('Why?', ' \n ')], 'INVALID_DOCUMENT', 'Question 3 has no answer.', { Field: 'Faq[2].Answer' }],
        ['an empty pair', [pair('', '')], 'INVALID_DOCUMENT', 'Question 1 and its answer are empty: fill them in or remove the pair.', { Field: 'Faq[0]' }],
        [
          'a question of 1,001 characters',
          [ok, pair('q'.repeat(1_001), 'a')],
          'LIMIT_EXCEEDED',
          'Question 2 has 1001 characters; at most 1000 are kept.',
          { Field: 'Faq[1].Question', Limit: 'FaqQuestionChars', Max: 1_000 },
        ],
        [
          'an answer of 10,001 characters',
          [pair('Why?', 'a'.repeat(10_001))],
          'LIMIT_EXCEEDED',
          'The answer to question 1 has 10001 characters; at most 10000 are kept.',
          { Field: 'Faq[0].Answer', Limit: 'FaqAnswerChars', Max: 10_000 },
        ],
        [
          '1,001 pairs',
          Array.from({ length: 1_001 }, (_, i) => pair(`Question ${i}?`, `Answer ${i}.`)),
          'LIMIT_EXCEEDED',
          'An FAQ holds at most 1000 questions; this one has 1001.',
          { Field: 'Faq', Limit: 'FaqPairs', Max: 1_000 },
        ],
      ];
      const ids = await sourceIds(server, tenant);
      for (const [name, faq, code, message, details] of cases) {
        for (const res of [await put(created.SourceId, { Name: 'Renamed', Faq: faq }), await server.client.post(base(tenant), { Name: 'New', Faq: faq }, { token: tenant.accountToken })]) {
          assert.equal(res.status, 400, `${name}: ${res.text.slice(0, 300)}`);
          assert.deepEqual(
            { Code: res.body.Code, Message: res.body.Message, ...Object.fromEntries(Object.keys(details).map((k) => [k, res.body[k]])) },
            { Code: code, Message: message, ...details },
            name,
          );
        }
      }
      assert.deepEqual(await read(created.SourceId), before);
      assert.deepEqual(await sourceIds(server, tenant), ids);
      assert.ok((await search(server, tenant, 'helmets fitted', 20)).some((p) => p.SourceId === created.SourceId));
    });

    test('1,000 pairs are accepted, and an FAQ over 1 MiB (indexed after the 201) keeps its pairs', async () => {
      const faq = Array.from({ length: 1_000 }, (_, i) => ({ Question: `What does part ${i} cost?`, Answer: `Part ${i} costs ${i} euros. ${'Fitted while you wait. '.repeat(46)}`.trim() }));
      const created = await addSource(server, tenant, { Name: 'Parts', Faq: faq });
      assert.ok(created.Bytes > 1024 * 1024, `${created.Bytes} bytes`);
      const ready = await settled(server, tenant, created.SourceId);
      assert.equal(ready.Status, 'ready', ready.Error);
      assert.equal(ready.Chunks, 1_000);
      assert.deepEqual(ready.Faq, faq);
      assert.equal(ready.Passages.length, 1_000);
    });

    test('another kind has no Faq; an FAQ replaced by text keeps no pairs, and text replaced by an FAQ has them', async () => {
      const text = await addSource(server, tenant, { Name: 'Notes', Text: 'The workshop closes at six.' });
      assert.equal('Faq' in (await read(text.SourceId)), false);
      const faq = await addSource(server, tenant, { Name: 'Soon text', Faq: SHOP_FAQ });
      assert.equal((await put(faq.SourceId, { Name: 'Now text', Text: 'Repairs take two days.' })).status, 200);
      assert.equal('Faq' in (await read(faq.SourceId)), false);
      assert.equal((await put(faq.SourceId, { Name: 'FAQ again', Faq: [SHOP_FAQ[1]] })).status, 200);
      assert.deepEqual((await read(faq.SourceId)).Faq, [{ Question: 'Can I rent a bike?', Answer: 'City bikes cost 15 euros a day.' }]);
    });

    test('a full clone copies the pairs; the clone edits its own', async () => {
      const master = await createTenant(server.client);
      const created = await addSource(server, master, { Name: 'Master FAQ', Faq: SHOP_FAQ.slice(1) });
      const res = await server.client.post(
        '/bot/clone',
        { Source: { BotAPIKey: master.botKey, BotSecret: master.botSecret }, Destination: { BotName: 'Copy', Variables: [] } },
        { token: master.accountToken },
      );
      assert.equal(res.status, 200, res.text);
      const copy = { ...master, botKey: res.body.APIKey };
      const [copied] = await sourceIds(server, copy);
      assert.notEqual(copied, created.SourceId);
      assert.deepEqual((await read(copied, copy)).Faq, (await read(created.SourceId, master)).Faq);
      const edit = await server.client.put(`${base(copy)}/${copied}`, { Name: 'Copy FAQ', Faq: [SHOP_FAQ[2]] }, { token: master.accountToken });
      assert.equal(edit.status, 200, edit.text);
      assert.equal((await read(created.SourceId, master)).Faq.length, 2);
    });
  });
}
