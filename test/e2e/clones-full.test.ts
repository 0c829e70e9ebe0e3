// api.md section 10, POST /bot/clone: every status code, and `[[name]]` tagged text filled in every
// kind of string of the copy (texts, labels, URLs, names, trigger matches, variables, settings).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GUID } from '../support/bots.js';
import { behaviourOf, CloneApi, edited, expectError, linkBot } from '../support/clones.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const goTo = (behaviour: string, interaction?: string) => ({ type: 'goTo', mode: 'absolute', behaviour, ...(interaction ? { interaction } : {}) });

/** A template bot with tags in every kind of string a bot file has. */
function templateBot(): any {
  return {
    format: 'colloquy/bot@1',
    name: '[[brand]] template',
    description: 'Support for [[brand]]',
    avatar: 'https://[[domain]]/avatar.png',
    settings: { channels: { custom: { webhookUrl: 'https://[[domain]]/hook' }, web: { enabled: true, allowedOrigins: ['https://[[domain]]'] } } },
    variables: { company: '[[brand]]', '[[prefix]]_code': '[[code]]' },
    triggers: [
      { match: '[[keyword]]|help', actions: [{ type: 'text', text: '[[brand]] help' }] },
      { match: { regex: '^[[code]]$' }, variable: '[[prefix]]_typed', actions: [{ type: 'text', text: 'Code [[code]] accepted' }] },
    ],
    behaviours: [
      {
        name: 'Main',
        start: true,
        description: '[[brand]] main flow',
        interactions: [
          {
            name: 'Welcome',
            start: true,
            enableUserChat: true,
            actions: [
              { type: 'text', text: 'Welcome to [[brand]]! [[unknown]] stays, {{company}} is a template' },
              { type: 'image', url: 'https://[[domain]]/logo.png', caption: '[[brand]] logo' },
              {
                type: 'buttons',
                text: 'Pick at [[brand]]',
                buttons: [
                  { type: 'button', text: '[[product]] info', onClick: [goTo('[[section]]', '[[section]] start')] },
                  { type: 'link', text: '[[brand]] site', url: 'https://[[domain]]/help' },
                ],
              },
            ],
          },
          {
            name: '[[product]] cards',
            actions: [
              {
                type: 'carousel',
                cards: [{ title: '[[product]]', subtitle: 'by [[brand]]', imageUrl: 'https://[[domain]]/p.jpg', buttons: [{ type: 'button', text: 'Buy [[product]]', onClick: [] }] }],
              },
              { type: 'setVariable', name: '[[prefix]]_seen', mode: 'overwrite', value: '[[brand]]' },
              { type: 'variableSwitch', variable: 'company', criteria: 'equals', value: '[[brand]]', then: [{ type: 'setTag', tag: '[[prefix]]_tag' }] },
              { type: 'input', question: 'Size for [[product]]?', expect: '[[sizes]]', variable: 'size', wrongAnswerTexts: ['Pick [[sizes]]'], onSuccess: [] },
              { type: 'callApi', method: 'POST', url: 'https://[[domain]]/api', headers: { 'X-Brand': '[[brand]]' }, body: '{"b":"[[brand]]"}', variable: 'r' },
            ],
          },
          { name: 'Sorry', fallback: true, actions: [{ type: 'text', texts: ['[[brand]] did not get that'] }] },
        ],
      },
      { name: '[[section]]', interactions: [{ name: '[[section]] start', start: true, actions: [{ type: 'text', text: '[[section]] here' }] }] },
    ],
  };
}

const VALUES = [
  { Name: 'brand', Value: 'Globex' },
  { Name: 'domain', Value: 'globex.example' },
  { Name: 'prefix', Value: 'gx' },
  { Name: 'code', Value: 4242 },
  { Name: 'keyword', Value: 'assist' },
  { Name: 'product', Value: 'Kettle' },
  { Name: 'section', Value: 'Sales' },
  { Name: 'sizes', Value: 'S|M|L' },
];

for (const kind of databaseKinds()) {
  describe(`full clones (${kind})`, () => {
    let server: TestServer;
    let api: CloneApi;
    let other: CloneApi;
    before(async () => {
      server = await startTestServer(kind);
      // No master-bot package: full clones do not need it.
      const account = await createAccount(server.client, 'standard');
      api = new CloneApi(server.client, account.AccountAPIKey, await accountToken(server.client, account.AccountAPIKey));
      const second = await createAccount(server.client, 'standard');
      other = new CloneApi(server.client, second.AccountAPIKey, await accountToken(server.client, second.AccountAPIKey));
    });
    after(() => server.close());

    const clone = (body: unknown, token = api.accountToken) => server.client.post('/bot/clone', body, { token });
    const bodyFor = (source: { key: string; secret: string }, destination: unknown = { BotName: 'Copy', Variables: VALUES }) => ({
      Source: { BotAPIKey: source.key, BotSecret: source.secret },
      Destination: destination,
    });
    const count = async () => (await server.client.get('/bots', { token: api.accountToken })).body.Result.length;

    test('400 MISSING_FIELD names the field; unknown fields are ignored, wrong types are 400 INVALID_REQUEST; 401', async () => {
      const source = await api.newBot(linkBot('v1'));
      const src = { BotAPIKey: source.key, BotSecret: source.secret };
      const missing: [unknown, string][] = [
        [{ Destination: { BotName: 'x' } }, 'Source'],
        [{ Source: { BotSecret: source.secret }, Destination: { BotName: 'x' } }, 'Source.BotAPIKey'],
        [{ Source: { BotAPIKey: source.key }, Destination: { BotName: 'x' } }, 'Source.BotSecret'],
        [{ Source: src }, 'Destination'],
        [{ Source: src, Destination: {} }, 'Destination.BotName'],
        [{ Source: src, Destination: { BotName: '  ' } }, 'Destination.BotName'],
        [{ Source: src, Destination: { BotName: 'x', Variables: [{ Value: 'v' }] } }, 'Destination.Variables[0].Name'],
        [{ Source: src, Destination: { BotName: 'x', Variables: [{ Name: 'a', Value: 'v' }, { Name: 'b' }] } }, 'Destination.Variables[1].Value'],
      ];
      const before = await count();
      for (const [body, field] of missing) {
        const res = await clone(body);
        expectError(res, 400, 'MISSING_FIELD', JSON.stringify(body));
        assert.equal(res.body.Field, field);
      }
      expectError(await clone({ Source: src, Destination: { BotName: 5, Colour: 'red' } }), 400, 'INVALID_REQUEST');
      expectError(await clone({ Source: src, Destination: { BotName: 'x', Variables: [{ Name: 'a', Value: {} }] } }), 400, 'INVALID_REQUEST');
      expectError(await server.client.post('/bot/clone', bodyFor(source)), 401, 'TOKEN_MISSING');
      expectError(await clone(bodyFor(source), source.token), 403, 'TOKEN_SCOPE');
      assert.equal(await count(), before, 'no bot was made');
    });

    test("404 BOT_NOT_FOUND for an unknown key, a wrong secret and another account's bot", async () => {
      const source = await api.newBot(linkBot('v1'));
      const foreign = await other.newBot(linkBot('v1'));
      const before = await count();
      for (const src of [{ key: crypto.randomUUID(), secret: source.secret }, { key: source.key, secret: 'wrong' }, foreign]) {
        expectError(await clone(bodyFor(src)), 404, 'BOT_NOT_FOUND');
      }
      assert.equal(await count(), before);
    });

    test('every [[name]] is filled in every kind of string; unknown tags and {{templates}} stay', async () => {
      const source = await api.newBot(templateBot());
      const res = await clone(bodyFor(source, { BotName: 'Globex desk', Variables: VALUES }));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['APIKey', 'APISecret']);
      assert.match(res.body.APIKey, GUID);
      const copy = await api.draft(res.body.APIKey);
      const main = behaviourOf(copy, 'Main');
      const [welcome, cards, sorry] = main.interactions;
      const [text, image, buttons] = welcome.actions;
      const [carousel, setVariable, variableSwitch, input, callApi] = cards.actions;
      const checks: [string, unknown, unknown][] = [
        ['bot name (BotName)', copy.name, 'Globex desk'],
        ['description', copy.description, 'Support for Globex'],
        ['avatar URL', copy.avatar, 'https://globex.example/avatar.png'],
        ['webhook URL', copy.settings.channels.custom.webhookUrl, 'https://globex.example/hook'],
        ['allowed origins', copy.settings.channels.web.allowedOrigins, ['https://globex.example']],
        ['variable values and names', copy.variables, { company: 'Globex', gx_code: '4242' }],
        ['trigger match', copy.triggers[0].match, 'assist|help'],
        ['trigger regex', copy.triggers[1].match, { regex: '^4242$' }],
        ['trigger variable', copy.triggers[1].variable, 'gx_typed'],
        ['trigger text', copy.triggers[0].actions[0].text, 'Globex help'],
        ['behaviour description', main.description, 'Globex main flow'],
        ['text', text.text, 'Welcome to Globex! [[unknown]] stays, {{company}} is a template'],
        ['texts', sorry.actions[0].texts, ['Globex did not get that']],
        ['image URL and caption', [image.url, image.caption], ['https://globex.example/logo.png', 'Globex logo']],
        ['buttons text', buttons.text, 'Pick at Globex'],
        ['button label', buttons.buttons[0].text, 'Kettle info'],
        ['goTo names', [buttons.buttons[0].onClick[0].behaviour, buttons.buttons[0].onClick[0].interaction], ['Sales', 'Sales start']],
        ['link label and URL', [buttons.buttons[1].text, buttons.buttons[1].url], ['Globex site', 'https://globex.example/help']],
        ['interaction name', cards.name, 'Kettle cards'],
        ['carousel card', [carousel.cards[0].title, carousel.cards[0].subtitle, carousel.cards[0].imageUrl], ['Kettle', 'by Globex', 'https://globex.example/p.jpg']],
        ['card button', carousel.cards[0].buttons[0].text, 'Buy Kettle'],
        ['setVariable name and value', [setVariable.name, setVariable.value], ['gx_seen', 'Globex']],
        ['variableSwitch value and tag', [variableSwitch.value, variableSwitch.then[0].tag], ['Globex', 'gx_tag']],
        ['input', [input.question, input.expect, input.wrongAnswerTexts], ['Size for Kettle?', 'S|M|L', ['Pick S|M|L']]],
        ['callApi', [callApi.url, callApi.headers, callApi.body], ['https://globex.example/api', { 'X-Brand': 'Globex' }, '{"b":"Globex"}']],
        ['behaviour and interaction names', [copy.behaviours[1].name, copy.behaviours[1].interactions[0].name], ['Sales', 'Sales start']],
      ];
      for (const [what, actual, expected] of checks) assert.deepEqual(actual, expected, what);
      const json = JSON.stringify(copy);
      for (const { Name } of VALUES) assert.ok(!json.includes(`[[${Name}]]`), `no [[${Name}]] left`);
      // Ids are the source's: they are GUIDs, not tags, and button payloads stay valid.
      assert.equal(buttons.buttons[0].id, behaviourOf(await api.draft(source.key), 'Main').interactions[0].actions[2].buttons[0].id);
      const listed = await api.listed(res.body.APIKey);
      assert.deepEqual([listed.Role, listed.MasterAPIKey, listed.Version, listed.Name], ['standard', null, 1, 'Globex desk']);
      // It chats at once, with the values in.
      const token = (await api.keys(res.body.APIKey, res.body.APISecret)).token;
      const parts = (await server.client.post('/custom/chat', { UserId: 'f1', Command: 'RESET' }, { token })).body.Parts;
      assert.equal(parts[0].Text, 'Welcome to Globex! [[unknown]] stays, Globex is a template');
      assert.equal(parts[1].Url, 'https://globex.example/logo.png');
      assert.deepEqual(await api.say(token, 'f1', { Text: 'assist' }), ['Globex help']);
      assert.deepEqual(await api.say(token, 'f1', { Text: '4242' }), ['Code 4242 accepted']);
      // The source is untouched.
      const source2 = await api.listed(source.key);
      assert.deepEqual([source2.Role, source2.Version, source2.Name], ['standard', 1, '[[brand]] template']);
    });

    test('without Variables the copy is exact; the source draft becomes the draft and its live the live version', async () => {
      const source = await api.newBot(linkBot('v1'));
      await api.putOk(
        source.key,
        edited(await api.draft(source.key), (f) => (f.behaviours[0].interactions[0].actions[0].text = 'Draft only [[x]]')),
      );
      const res = await clone(bodyFor(source, { BotName: 'Exact copy' }));
      assert.equal(res.status, 200, res.text);
      const copy = await api.keys(res.body.APIKey, res.body.APISecret);
      assert.deepEqual(await api.resetTexts(copy.token, 'e1'), ['Welcome to ACME v1', 'Pick one'], 'live = the source live');
      const { version, name, ...rest } = await api.draft(copy.key);
      const { version: _v, name: _n, ...expected } = await api.draft(source.key);
      assert.deepEqual([version, name], [1, 'Exact copy']);
      assert.deepEqual(rest, expected, 'draft = the source draft, tag left as it is');
    });

    test('a clone of a master or of a referenced clone is a detached standard bot', async () => {
      const account = await createAccount(server.client, 'standard', ['master-bot']);
      const masters = new CloneApi(server.client, account.AccountAPIKey, await accountToken(server.client, account.AccountAPIKey));
      const master = await masters.newBot(linkBot('v1'));
      const ref = await masters.refcloneOk(master);
      for (const source of [master, ref]) {
        const res = await server.client.post('/bot/clone', bodyFor(source, { BotName: 'Free copy', Variables: [] }), { token: masters.accountToken });
        assert.equal(res.status, 200, res.text);
        const listed = await masters.listed(res.body.APIKey);
        assert.deepEqual([listed.Role, listed.MasterAPIKey], ['standard', null]);
        assert.equal(
          (
            await masters.put(
              res.body.APIKey,
              edited(await masters.draft(res.body.APIKey), (f) => (f.triggers = [])),
            )
          ).status,
          200,
        );
      }
    });

    test('values that break a rule of the bot file → 400 INVALID_BOT listing the problems; nothing is made', async () => {
      const source = await api.newBot(templateBot());
      const before = await count();
      // "Main" as the section name makes two behaviours called Main.
      const res = await clone(bodyFor(source, { BotName: 'Broken', Variables: [...VALUES.filter((v) => v.Name !== 'section'), { Name: 'section', Value: 'Main' }] }));
      expectError(res, 400, 'INVALID_BOT');
      assert.ok(Array.isArray(res.body.Problems) && res.body.Problems.length > 0, res.text);
      assert.equal(await count(), before);
    });
  });
}
