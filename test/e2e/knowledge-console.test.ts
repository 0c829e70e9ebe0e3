// The Knowledge page's API (knowledge.md "Console"): the knowledge routes' cookie twins under
// /console/api/bots/{botId}/knowledge…, for a signed-in designer or admin (designer.md "Who": an
// agent has conversations only and is refused every one, reads included). They do what the
// account-token routes do (same service), uploads included; another account's bot is a missing
// one; a change from another origin is refused by the console's cross-site guard.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { docxFile } from '../support/knowledge-files.js';
import { PETS_MD, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`knowledge through the console (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    let botId: string;
    let otherBotId: string;
    const cookies = {} as Record<'agent' | 'designer' | 'admin' | 'stranger', string>;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      otherBotId = await botIdOf(server, other.botKey);
      for (const role of ['agent', 'designer', 'admin'] as const) {
        await addOperator(server.client, tenant.accountId, `${role}-${kind}@example.org`, undefined, role, role);
        cookies[role] = await signIn(server.client, `${role}-${kind}@example.org`);
      }
      await addOperator(server.client, other.accountId, `stranger-${kind}@example.org`, undefined, 'Stranger', 'admin');
      cookies.stranger = await signIn(server.client, `stranger-${kind}@example.org`);
    });
    after(() => server.close());

    const path = (rest = '', bot = botId) => `/console/api/bots/${bot}/knowledge${rest}`;
    const as = (who: keyof typeof cookies, method: string, rest = '', body?: unknown, bot = botId, headers: Record<string, string> = {}) =>
      server.client.call(method, path(rest, bot), body, { headers: { cookie: cookies[who], ...headers } });
    const uploadAs = async (who: keyof typeof cookies, method: 'POST' | 'PUT', rest: string, name: string, data: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(data)]), name);
      const res = await fetch(server.client.base + path(rest), { method, headers: { cookie: cookies[who] }, body: form });
      return { status: res.status, body: (await res.json()) as any };
    };

    test('a designer adds, lists, reads, searches, asks, replaces (upload) and deletes; the integration API sees the same sources', async () => {
      const added = await as('designer', 'POST', '', { Name: 'Travel rules', Text: PETS_MD });
      assert.equal(added.status, 201, added.text);
      assert.deepEqual([added.body.Name, added.body.Kind, added.body.Status, added.body.Chunks, added.body.Error], ['Travel rules', 'text', 'ready', 3, null]);
      const id = added.body.SourceId;
      assert.deepEqual(await sourceIds(server, tenant), [id], 'the account-token route lists it');

      const list = await as('designer', 'GET');
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.Result.map((s: any) => s.SourceId),
        [id],
      );
      const one = await as('designer', 'GET', `/${id}`);
      assert.deepEqual(
        one.body.Passages.map((p: any) => p.Heading),
        ['Pets', 'Luggage', 'Refunds'],
      );

      const found = await as('designer', 'POST', '/search', { Text: 'pets in the cabin', Limit: 2 });
      assert.equal(found.status, 200);
      assert.equal(found.body.Result[0].Heading, 'Pets');
      assert.equal(typeof found.body.Result[0].Score, 'number');
      const answer = await as('designer', 'POST', '/ask', { Text: 'How much does a pet in the cabin cost?' });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.Status, 'ANSWERED');
      assert.match(answer.body.Answer, /40 euros per flight/);
      assert.deepEqual(
        answer.body.Sources.map((s: any) => [s.SourceId, s.SourceName]),
        [[id, 'Travel rules']],
      );

      const docx = await docxFile([{ heading: 'Parking' }, 'Free parking behind the shop.']);
      const replaced = await uploadAs('designer', 'PUT', `/${id}`, 'Shop.docx', docx);
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.deepEqual([replaced.body.SourceId, replaced.body.Name, replaced.body.Kind, replaced.body.Chunks, replaced.body.Bytes], [id, 'Shop.docx', 'docx', 1, docx.length]);
      assert.deepEqual((await as('designer', 'POST', '/search', { Text: 'pets cabin' })).body.Result, [], 'the old passages are gone');

      const gone = await as('admin', 'DELETE', `/${id}`);
      assert.equal(gone.status, 204);
      assert.deepEqual(await sourceIds(server, tenant), []);
      const again = await as('admin', 'GET', `/${id}`);
      assert.deepEqual([again.status, again.body.Code], [404, 'SOURCE_NOT_FOUND']);
    });

    test('the server refuses a bad document through the console as through the API, with its Code; nothing is added', async () => {
      const broken = await uploadAs('designer', 'POST', '', 'broken.pdf', Buffer.from('%PDF-1.4\nthis is not a PDF at all'));
      assert.deepEqual([broken.status, broken.body.Code], [400, 'INVALID_DOCUMENT']);
      const image = await uploadAs('designer', 'POST', '', 'logo.png', Buffer.from('not really a png'));
      assert.deepEqual([image.status, image.body.Code], [415, 'UNSUPPORTED_MEDIA_TYPE']);
      const large = await uploadAs('designer', 'POST', '', 'large.txt', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
      assert.deepEqual([large.status, large.body.Code], [413, 'PAYLOAD_TOO_LARGE']);
      const twoKinds = await as('designer', 'POST', '', { Name: 'x', Text: 'a', Html: '<p>b</p>' });
      assert.equal(twoKinds.status, 400);
      assert.deepEqual(await sourceIds(server, tenant), []);
    });

    test('an agent is refused every knowledge route, reads included (403 ROLE_FORBIDDEN), and changes nothing', async () => {
      const kept = await as('admin', 'POST', '', { Name: 'Kept', Text: 'The harbour tour starts at dawn.' });
      const id = kept.body.SourceId;
      const calls: Array<[string, string, unknown?]> = [
        ['GET', ''],
        ['GET', `/${id}`],
        ['POST', '', { Name: 'x', Text: 'y' }],
        ['PUT', `/${id}`, { Name: 'x', Text: 'y' }],
        ['DELETE', `/${id}`],
        ['POST', '/search', { Text: 'harbour' }],
        ['POST', '/ask', { Text: 'harbour' }],
      ];
      for (const [method, rest, body] of calls) {
        const res = await as('agent', method, rest, body);
        assert.deepEqual([method, rest, res.status, res.body.Code], [method, rest, 403, 'ROLE_FORBIDDEN']);
      }
      const upload = await uploadAs('agent', 'POST', '', 'a.txt', Buffer.from('Refused before the body is read.'));
      assert.deepEqual([upload.status, upload.body.Code], [403, 'ROLE_FORBIDDEN']);
      assert.deepEqual(await sourceIds(server, tenant), [id]);
      assert.equal((await as('admin', 'GET', `/${id}`)).body.Name, 'Kept');
      await as('admin', 'DELETE', `/${id}`);
    });

    test("another account's bot is a missing one, for reads and changes alike; its sources stay", async () => {
      const theirs = await as('stranger', 'POST', '', { Name: 'Theirs', Text: 'Their own ferry timetable.' }, otherBotId);
      assert.equal(theirs.status, 201, theirs.text);
      const calls: Array<[string, string, unknown?]> = [
        ['GET', ''],
        ['GET', `/${theirs.body.SourceId}`],
        ['POST', '', { Name: 'x', Text: 'y' }],
        ['PUT', `/${theirs.body.SourceId}`, { Name: 'x', Text: 'y' }],
        ['DELETE', `/${theirs.body.SourceId}`],
        ['POST', '/search', { Text: 'ferry' }],
        ['POST', '/ask', { Text: 'ferry' }],
      ];
      for (const [method, rest, body] of calls) {
        const res = await as('designer', method, rest, body, otherBotId);
        assert.deepEqual([method, rest, res.status, res.body.Code], [method, rest, 404, 'BOT_NOT_FOUND']);
      }
      assert.deepEqual(await sourceIds(server, other), [theirs.body.SourceId]);
      assert.deepEqual(await sourceIds(server, tenant), []);
    });

    test('a change sent from another origin is refused by the cross-site guard (403 ORIGIN_FORBIDDEN); nothing is added', async () => {
      const res = await as('admin', 'POST', '', { Name: 'Forged', Text: 'Forged text.' }, botId, { origin: 'https://evil.example' });
      assert.deepEqual([res.status, res.body.Code], [403, 'ORIGIN_FORBIDDEN']);
      const site = await as('admin', 'DELETE', '/any', undefined, botId, { 'sec-fetch-site': 'cross-site' });
      assert.deepEqual([site.status, site.body.Code], [403, 'ORIGIN_FORBIDDEN']);
      assert.deepEqual(await sourceIds(server, tenant), []);
    });
  });
}
