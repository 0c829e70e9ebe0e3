// Issue 23, the designer's bot routes (designer.md "API behind it"): the draft with If-Match, publish,
// versions with who published them, one version's file, the diff, rollback — with an account token
// and with a designer's console session (cookie, behind the cross-site guard).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const file = (welcome: string, extra: object[] = []): any => ({
  format: 'colloquy/bot@1',
  name: 'Diffable',
  variables: { company: 'ACME' },
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        {
          name: 'Welcome',
          start: true,
          actions: [
            { type: 'text', text: welcome },
            { type: 'text', text: 'How can I help?' },
          ],
        },
        { name: 'Bye', actions: [{ type: 'text', text: 'Goodbye!' }] },
        ...extra,
      ],
    },
  ],
});

for (const kind of databaseKinds()) {
  describe(`designer bot routes (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    let operatorId: string;
    let cookie: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, file('Hello'));
      botId = await botIdOf(server, tenant.botKey);
      operatorId = (await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Signer', 'designer')).OperatorId;
      cookie = await signIn(server.client, 'dee@example.org');
    });
    after(() => server.close());

    const asDesigner = (extra: Record<string, string> = {}) => ({ headers: { cookie, ...extra } });
    const consolePath = (suffix: string) => `/console/api/bots/${botId}${suffix}`;

    test('a designer reads and saves the draft with If-Match, publishes, and is named as the publisher', async () => {
      const draft = await server.client.get(consolePath('/draft'), asDesigner());
      assert.equal(draft.status, 200, draft.text);
      assert.equal(draft.headers.get('etag'), '"1"');
      assert.equal(draft.body.version, 1);
      const edited = { ...draft.body, version: undefined };
      edited.behaviours[0].interactions[0].actions[0].text = 'Hello there';
      const saved = await server.client.put(consolePath('/draft'), edited, asDesigner({ 'if-match': '"1"' }));
      assert.equal(saved.status, 200, saved.text);
      assert.deepEqual(saved.body, { APIKey: tenant.botKey, Version: 2, Problems: [] });
      const stale = await server.client.put(consolePath('/draft'), edited, asDesigner({ 'if-match': '"1"' }));
      assert.equal(stale.status, 412);
      assert.equal(stale.body.Code, 'VERSION_MISMATCH');
      assert.equal(stale.body.Version, 2);
      const published = await server.client.post(consolePath('/publish'), {}, asDesigner());
      assert.equal(published.status, 200, published.text);
      assert.deepEqual(published.body, { APIKey: tenant.botKey, Version: 3 });
      const byToken = await server.client.post(`/bots/${tenant.botKey}/publish`, undefined, { token: tenant.accountToken });
      assert.equal(byToken.body.Version, 4);
      const versions = await server.client.get(consolePath('/versions'), asDesigner());
      assert.equal(versions.status, 200);
      assert.deepEqual(
        versions.body.Result.map((v: any) => [v.Version, v.PublishedBy]),
        [
          [4, { Kind: 'account' }],
          [3, { Kind: 'operator', OperatorId: operatorId, Email: 'dee@example.org', Name: 'Dee Signer' }],
          [1, null],
        ],
      );
      const same = await server.client.get(`/bots/${tenant.botKey}/versions`, { token: tenant.accountToken });
      assert.deepEqual(same.body, versions.body, 'the account token sees the same list');
    });

    test('a version as a bot file; unknown and malformed versions are refused', async () => {
      for (const path of [`/bots/${tenant.botKey}/versions/1`, consolePath('/versions/1')]) {
        const res = path.startsWith('/bots') ? await server.client.get(path, { token: tenant.accountToken }) : await server.client.get(path, asDesigner());
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.version, 1);
        assert.equal(res.body.behaviours[0].interactions[0].actions[0].text, 'Hello');
      }
      const missing = await server.client.get(`/bots/${tenant.botKey}/versions/2`, { token: tenant.accountToken });
      assert.equal(missing.status, 404, 'version 2 was a draft edit, never published');
      assert.equal(missing.body.Code, 'VERSION_NOT_FOUND');
      const malformed = await server.client.get(`/bots/${tenant.botKey}/versions/0`, { token: tenant.accountToken });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.Code, 'INVALID_REQUEST');
    });

    test('the diff names interactions and actions by JSON pointer, to a version or to the draft', async () => {
      const changed = file('Hello there', [{ name: 'Help', actions: [{ type: 'text', text: 'Here is some help.' }] }]);
      changed.behaviours[0].interactions[0].actions.unshift({ type: 'text', text: 'Psst.' });
      changed.behaviours[0].interactions.splice(1, 1); // Bye goes
      (changed.variables as Record<string, string>) = { company: 'ACME Inc', tone: 'warm' };
      const put = await server.client.put(`/bots/${tenant.botKey}`, changed, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
      const diff = await server.client.get(`/bots/${tenant.botKey}/diff?from=1&to=draft`, { token: tenant.accountToken });
      assert.equal(diff.status, 200, diff.text);
      assert.equal(diff.body.From, 1);
      assert.equal(diff.body.To, 'draft');
      assert.deepEqual(diff.body.Changes, [
        { Path: '/variables/company', Kind: 'changed', Before: 'ACME', After: 'ACME Inc' },
        { Path: '/variables/tone', Kind: 'added', After: 'warm' },
        { Path: '/behaviours/0/interactions/0/actions/0', Kind: 'changed', Before: { type: 'text', text: 'Hello' }, After: { type: 'text', text: 'Psst.' }, Behaviour: 'Main', Interaction: 'Welcome' },
        { Path: '/behaviours/0/interactions/0/actions/1', Kind: 'added', After: { type: 'text', text: 'Hello there' }, Behaviour: 'Main', Interaction: 'Welcome' },
        { Path: '/behaviours/0/interactions/1', Kind: 'added', After: { name: 'Help', actions: [{ type: 'text', text: 'Here is some help.' }] }, Behaviour: 'Main' },
        { Path: '/behaviours/0/interactions/1', Kind: 'removed', Before: { name: 'Bye', actions: [{ type: 'text', text: 'Goodbye!' }] }, Behaviour: 'Main' },
      ]);
      const none = await server.client.get(consolePath('/diff?from=3&to=4'), asDesigner());
      assert.equal(none.status, 200);
      assert.deepEqual(none.body, { From: 3, To: 4, Changes: [] });
      const unknown = await server.client.get(`/bots/${tenant.botKey}/diff?from=2&to=draft`, { token: tenant.accountToken });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'VERSION_NOT_FOUND');
      const bad = await server.client.get(`/bots/${tenant.botKey}/diff?from=1&to=latest`, { token: tenant.accountToken });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'INVALID_REQUEST');
    });

    test('rollback by a designer; another origin, another account and no session are refused', async () => {
      const rolled = await server.client.post(consolePath('/rollback'), { Version: 1 }, asDesigner());
      assert.equal(rolled.status, 200, rolled.text);
      const versions = await server.client.get(consolePath('/versions'), asDesigner());
      assert.equal(versions.body.Result[0].PublishedBy.Kind, 'operator');
      const crossSite = await server.client.post(consolePath('/publish'), {}, asDesigner({ origin: 'http://127.0.0.1:1' }));
      assert.equal(crossSite.status, 403);
      assert.equal(crossSite.body.Code, 'ORIGIN_FORBIDDEN');
      const other = await createTenant(server.client);
      const theirs = await server.client.get(`/console/api/bots/${await botIdOf(server, other.botKey)}/draft`, asDesigner());
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.Code, 'BOT_NOT_FOUND');
      const anonymous = await server.client.get(consolePath('/draft'));
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.Code, 'TOKEN_MISSING');
      const after = await server.client.get(consolePath('/versions'), asDesigner());
      assert.equal(after.body.Result.length, versions.body.Result.length, 'the refused publish changed nothing');
    });
  });
}
