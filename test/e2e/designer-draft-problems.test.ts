// Issue 37 item 6: in the console a draft with problems can always be saved (docs/designer.md
// "Saving"): it is kept with its problems, publishing and the preview refuse it, the API's
// PUT /bots/{APIKey} still refuses an invalid file, and what is not a draft at all (not an
// object, over a bound, not JSON) is still refused and leaves the stored draft as it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { flowBrackets, yamlKeys } from '../support/bot-file-attacks.js';
import { addOperator, botIdOf, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const valid = (): any => ({
  format: 'colloquy/bot@1',
  name: 'Bikes',
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        {
          name: 'Welcome',
          start: true,
          actions: [
            { type: 'text', text: 'Hello' },
            { type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Bye' },
          ],
        },
        { name: 'Bye', actions: [{ type: 'text', text: 'Goodbye!' }] },
      ],
    },
  ],
});

/** Three kinds of problem: an unknown goTo target, a duplicate name, a missing required field. */
const withProblems = (): any => {
  const file = valid();
  const [welcome, bye] = file.behaviours[0].interactions;
  welcome.actions[1].interaction = 'Nowhere';
  bye.name = 'welcome';
  bye.actions = [{ type: 'text' }];
  return file;
};
const PROBLEMS = [
  { Path: '$.behaviours[0].interactions[1].actions[0]', Message: "requires 'text' or 'texts'" },
  { Path: '$.behaviours[0].interactions[1].name', Message: "duplicate interaction name 'welcome' (names are case-insensitive; first at index 0)" },
  { Path: '$.behaviours[0].interactions[0].actions[1].interaction', Message: "goTo target: behaviour 'Main' has no interaction named 'Nowhere'" },
];

for (const kind of databaseKinds()) {
  describe(`a draft with problems is saved in the console (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    let cookie: string;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, valid());
      botId = await botIdOf(server, tenant.botKey);
      await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Signer', 'designer');
      cookie = await signIn(server.client, 'dee@example.org');
    });
    after(() => server.close());

    const as = (extra: Record<string, string> = {}) => ({ headers: { cookie, ...extra } });
    const at = (suffix: string) => `/console/api/bots/${botId}${suffix}`;
    const api = { token: () => ({ token: tenant.accountToken }) };
    const version = async () => (await server.client.get(at('/draft/problems'), as())).body.Version as number;

    test('saved with 200 and its problems; read back with them; publish and preview refused; the API still refuses', async () => {
      const saved = await server.client.put(at('/draft'), withProblems(), as({ 'if-match': '"1"' }));
      assert.equal(saved.status, 200, saved.text);
      assert.deepEqual(saved.body, { APIKey: tenant.botKey, Version: 2, Problems: PROBLEMS });

      const draft = await server.client.get(at('/draft'), as());
      assert.equal(draft.status, 200);
      assert.equal(draft.headers.get('etag'), '"2"');
      assert.deepEqual({ ...draft.body, behaviours: undefined }, { format: 'colloquy/bot@1', name: 'Bikes', version: 2, behaviours: undefined });
      const behaviour = draft.body.behaviours[0];
      assert.deepEqual(
        behaviour.interactions.map((i: any) => i.name),
        ['Welcome', 'welcome'],
      );
      assert.equal(behaviour.interactions[0].actions[1].interaction, 'Nowhere');
      assert.equal(typeof behaviour.apiKey, 'string', 'ids are given as to a valid draft');
      assert.deepEqual((await server.client.get(at('/draft/problems'), as())).body, { Version: 2, Problems: PROBLEMS });
      const byApi = await server.client.get(`/bots/${tenant.botKey}`, api.token());
      assert.deepEqual(byApi.body, draft.body, 'the API reads the same draft');

      for (const publish of [() => server.client.post(at('/publish'), {}, as()), () => server.client.post(`/bots/${tenant.botKey}/publish`, undefined, api.token())]) {
        const refused = await publish();
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.Code, 'INVALID_BOT');
        assert.equal(refused.body.Message, 'The draft has 3 problem(s); fix them before publishing.');
        assert.deepEqual(refused.body.Problems, PROBLEMS);
      }
      const preview = await server.client.post(at('/preview/chat'), { UserId: 'p-1', Text: 'hi' }, as());
      assert.equal(preview.status, 400, preview.text);
      assert.equal(preview.body.Code, 'INVALID_BOT');
      assert.deepEqual(preview.body.Problems, PROBLEMS);
      const versions = await server.client.get(at('/versions'), as());
      assert.deepEqual(
        versions.body.Result.map((v: any) => v.Version),
        [1],
        'nothing was published',
      );
      const diff = await server.client.get(at('/diff?from=1&to=draft'), as());
      assert.equal(diff.status, 200, diff.text);
      // 'welcome' is matched with 'Welcome' (names are case-insensitive): the diff reads the draft as it is
      assert.deepEqual(diff.body.Changes.map((c: any) => [c.Path, c.Kind]).slice(-2), [
        ['/behaviours/0/interactions/0/actions/1', 'removed'],
        ['/behaviours/0/interactions/1', 'removed'],
      ]);

      const put = await server.client.put(`/bots/${tenant.botKey}`, withProblems(), api.token());
      assert.equal(put.status, 400, put.text);
      assert.equal(put.body.Code, 'INVALID_BOT');
      assert.deepEqual(put.body.Problems, PROBLEMS);
      assert.equal(await version(), 2, 'the refused API save changed nothing');

      // The live bot still answers from version 1, and the backup is the last draft without problems.
      const backup = await server.client.get('/bots/backup', { token: tenant.botToken });
      assert.equal(backup.body.behaviours[0].interactions[1].name, 'Bye');
    });

    test('renaming the bot meanwhile renames the draft with problems too', async () => {
      const renamed = await server.client.patch(at(''), { Name: 'Bike shop' }, as());
      assert.equal(renamed.status, 200, renamed.text);
      const draft = await server.client.get(at('/draft'), as());
      assert.equal(draft.body.name, 'Bike shop');
      assert.equal(draft.body.behaviours[0].interactions[1].name, 'welcome', 'the draft with problems is kept');
    });

    test('drafts that are objects of any shape are kept and read without a 5xx; publish and preview answer 400', async () => {
      const shapes: unknown[] = [
        {},
        { behaviours: 5, variables: [1], triggers: 'x' },
        { format: 'colloquy/bot@1', name: 7, behaviours: [1, null, 'x', { name: 5, interactions: 'x' }, { interactions: [null, { name: 'A', actions: 7 }] }] },
        {
          format: 'colloquy/bot@1',
          name: 'N',
          behaviours: [{ name: 'B', interactions: [{ name: 'I', actions: [null, 3, { type: 'goTo', mode: 'absolute' }, { type: 'buttons', buttons: 'x' }, { type: 'nope', onClick: [null] }] }] }],
          nlp: [],
          knowledge: 4,
        },
      ];
      for (const shape of shapes) {
        const saved = await server.client.put(at('/draft'), shape, as());
        assert.equal(saved.status, 200, `${JSON.stringify(shape)}: ${saved.text}`);
        assert.ok(saved.body.Problems.length > 0);
        for (const read of [at('/draft'), at('/draft/problems'), at('/diff?from=1&to=draft')]) {
          const res = await server.client.get(read, as());
          assert.equal(res.status, 200, `${read} of ${JSON.stringify(shape)}: ${res.text}`);
        }
        assert.equal((await server.client.get(`/bots/${tenant.botKey}`, api.token())).status, 200);
        for (const refused of [await server.client.post(at('/publish'), {}, as()), await server.client.post(at('/preview/chat'), { UserId: 'p-2', Text: 'hi' }, as())]) {
          assert.equal(refused.status, 400, refused.text);
          assert.equal(refused.body.Code, 'INVALID_BOT');
        }
      }
    });

    test('what is not a draft at all is refused with 400 and the stored draft stays as it was', async () => {
      const kept = await server.client.put(at('/draft'), withProblems(), as());
      assert.equal(kept.status, 200, kept.text);
      const before = await server.client.get(at('/draft'), as());
      const raw = (text: string, contentType = 'application/json') => server.client.put(at('/draft'), undefined, { ...as(), raw: text, contentType });
      const attacks: { name: string; send: () => Promise<any>; code: string; limit?: string }[] = [
        { name: 'a list', send: () => server.client.put(at('/draft'), [withProblems()], as()), code: 'INVALID_BOT' },
        { name: 'a JSON string', send: () => raw('"a bot"'), code: 'INVALID_BOT' },
        { name: 'a YAML scalar', send: () => raw('just words', 'application/yaml'), code: 'INVALID_BOT' },
        { name: 'null', send: () => raw('null'), code: 'INVALID_BOT' },
        { name: 'malformed JSON', send: () => raw('{"behaviours": ['), code: 'INVALID_JSON' },
        { name: 'a NUL', send: () => server.client.put(at('/draft'), { ...withProblems(), name: 'a\u0000b' }, as()), code: 'INVALID_REQUEST' },
        { name: 'nested 300 deep', send: () => raw(flowBrackets(300), 'application/yaml'), code: 'INVALID_BOT', limit: 'BotFileDepth' },
        { name: '120,000 keys', send: () => raw(yamlKeys(120_000), 'application/yaml'), code: 'INVALID_BOT', limit: 'BotFileNodes' },
      ];
      for (const attack of attacks) {
        const res = await attack.send();
        assert.equal(res.status, 400, `${attack.name}: ${res.text}`);
        assert.equal(res.body.Code, attack.code, attack.name);
        if (attack.limit) assert.equal(res.body.Limit, attack.limit, attack.name);
      }
      const after = await server.client.get(at('/draft'), as());
      assert.deepEqual(after.body, before.body);
      assert.deepEqual((await server.client.get(at('/draft/problems'), as())).body.Problems, PROBLEMS);
    });

    test('a save without problems ends them: the draft is the bot again, and it publishes', async () => {
      const current = await server.client.get(at('/draft'), as());
      const fixed = { ...valid(), name: 'Bike shop', behaviours: [{ ...valid().behaviours[0], apiKey: current.body.behaviours[0].apiKey }] };
      const saved = await server.client.put(at('/draft'), fixed, as({ 'if-match': `"${current.body.version}"` }));
      assert.equal(saved.status, 200, saved.text);
      assert.deepEqual(saved.body, { APIKey: tenant.botKey, Version: current.body.version + 1, Problems: [] });
      assert.deepEqual((await server.client.get(at('/draft/problems'), as())).body, { Version: current.body.version + 1, Problems: [] });
      const published = await server.client.post(at('/publish'), {}, as());
      assert.equal(published.status, 200, published.text);
      const chat = await server.client.post(at('/preview/chat'), { UserId: 'p-3', Text: 'hi' }, as());
      assert.equal(chat.status, 200, chat.text);
    });
  });
}
