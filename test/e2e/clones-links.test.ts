// api.md section 10, linked content: a master's publish (and rollback) republishes its clones,
// detaching, edits refused on linked behaviours, what stays the clone's own, conversations that
// run across a publish, and a clone that cannot take the master's content.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { behaviourOf, CloneApi, edited, expectError, linkBot, type BotKeys } from '../support/clones.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const welcome = (edition: string, company = 'ACME') => [`Welcome to ${company} ${edition}`, 'Pick one'];
const setWelcome = (file: any, text: string) => (behaviourOf(file, 'Main').interactions[0].actions[0].text = text);

for (const kind of databaseKinds()) {
  describe(`linked clones (${kind})`, () => {
    let server: TestServer;
    let api: CloneApi;
    before(async () => {
      server = await startTestServer(kind);
      const account = await createAccount(server.client, 'standard', ['master-bot']);
      api = new CloneApi(server.client, account.AccountAPIKey, await accountToken(server.client, account.AccountAPIKey));
    });
    after(() => server.close());

    /** A master made from linkBot('v1') and `n` clones of it. */
    const family = async (n = 1): Promise<{ master: BotKeys; clones: BotKeys[] }> => {
      const master = await api.newBot(linkBot('v1'));
      const clones: BotKeys[] = [];
      for (let i = 0; i < n; i++) clones.push(await api.refcloneOk(master));
      return { master, clones };
    };
    const version = async (key: string) => (await api.listed(key)).Version;

    test("a master's publish republishes every clone: Version + 1, the new text on the next turn", async () => {
      const { master, clones } = await family(2);
      assert.equal(await api.putOk(master.key, linkBot('v2')), 3);
      // A draft edit of the master reaches nobody.
      assert.deepEqual(await api.resetTexts(clones[0].token, 'p1'), welcome('v1'));
      assert.equal(await version(clones[0].key), 1);
      const published = await api.publish(master.key);
      assert.deepEqual(published, {
        APIKey: master.key,
        Version: 4,
        Clones: clones.map((c) => ({ APIKey: c.key, Version: 2, Published: true })),
      });
      for (const clone of clones) {
        assert.equal(await version(clone.key), 2);
        assert.deepEqual(await api.resetTexts(clone.token, 'p1'), welcome('v2'), 'an existing conversation');
        assert.deepEqual(await api.resetTexts(clone.token, 'p2'), welcome('v2'), 'a new one');
        const versions = await server.client.get(`/bots/${clone.key}/versions`, { token: api.accountToken });
        assert.deepEqual(versions.body.Result.map((v: any) => v.Version).sort(), [1, 2]);
        const draft = await api.draft(clone.key);
        assert.deepEqual(draft.behaviours, (await api.draft(master.key)).behaviours, "the clone's draft follows too");
      }
      // A standard bot's publish answer has no Clones.
      const standard = await api.newBot(linkBot('v1'));
      assert.deepEqual(await api.publish(standard.key), { APIKey: standard.key, Version: 2 });
    });

    test('a conversation on a clone runs on across a publish of the master, at the same position', async () => {
      const { master, clones } = await family();
      const [clone] = clones;
      await api.resetTexts(clone.token, 'conv');
      const parts = (await server.client.post('/custom/chat', { UserId: 'conv', Command: 'RESET' }, { token: clone.token })).body.Parts;
      const order = parts[1].Parts.find((p: any) => p.Text === 'Order').Command;
      assert.deepEqual(await api.say(clone.token, 'conv', { Command: order }), ['Order number?']);
      await api.putOk(master.key, linkBot('v2'));
      await api.publish(master.key);
      const position = await server.client.get('/custom/position?userid=conv', { token: clone.token });
      assert.deepEqual([position.body.BehaviourName, position.body.InteractionName], ['Orders', 'Ask']);
      assert.deepEqual(await api.say(clone.token, 'conv', { Text: '123' }), ['Order 123 noted v2']);
    });

    test("name, settings and variables are the clone's own; the master only adds variables the clone lacks", async () => {
      const { master, clones } = await family();
      const [clone] = clones;
      const patch = await server.client.patch(`/bots/${clone.key}/settings`, { wordsPerMinute: 900 }, { token: api.accountToken });
      assert.equal(patch.status, 200, patch.text);
      const own = edited(await api.draft(clone.key), (f) => {
        f.name = 'Globex desk';
        f.variables.company = 'Globex';
      });
      await api.putOk(clone.key, own);
      await api.publish(clone.key);
      const next = edited(linkBot('v2'), (f) => {
        f.variables = { company: 'Initech', slogan: 'fast' };
        setWelcome(f, 'Welcome to {{company}} v2 ({{slogan}})');
      });
      await api.putOk(master.key, next);
      await api.publish(master.key);
      const draft = await api.draft(clone.key);
      assert.equal(draft.name, 'Globex desk');
      assert.equal(draft.settings.wordsPerMinute, 900);
      assert.deepEqual(draft.variables, { company: 'Globex', slogan: 'fast' });
      assert.deepEqual(await api.resetTexts(clone.token, 'own'), ['Welcome to Globex v2 (fast)', 'Pick one']);
      assert.equal((await api.listed(clone.key)).Name, 'Globex desk');
    });

    test("detach: 200 with Version + 1; a detached behaviour keeps the clone's content after a master publish", async () => {
      const { master, clones } = await family();
      const [clone] = clones;
      const res = await api.detach(clone.key, 'main');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { APIKey: clone.key, Version: 2, Detached: ['Main'] });
      const again = await api.detach(clone.key, 'Main');
      assert.deepEqual(again.body, { APIKey: clone.key, Version: 2, Detached: ['Main'] }, 'detaching twice is no edit');
      await api.putOk(
        clone.key,
        edited(await api.draft(clone.key), (f) => setWelcome(f, 'Our own welcome')),
      );
      await api.publish(clone.key); // 4
      await api.putOk(master.key, linkBot('v2'));
      const published = await api.publish(master.key);
      assert.deepEqual(published.Clones, [{ APIKey: clone.key, Version: 5, Published: true }]);
      assert.deepEqual(await api.resetTexts(clone.token, 'dt'), ['Our own welcome', 'Pick one'], 'the detached behaviour stays');
      assert.deepEqual(await api.say(clone.token, 'dt', { Text: 'help' }), ['Help v2'], 'bot-wide triggers follow the master');
      const draft = await api.draft(clone.key);
      const masterDraft = await api.draft(master.key);
      assert.deepEqual(behaviourOf(draft, 'Orders'), behaviourOf(masterDraft, 'Orders'), 'linked behaviours follow the master');
      assert.equal(behaviourOf(draft, 'Main').interactions[0].actions[0].text, 'Our own welcome');
    });

    test('detach: 404 BEHAVIOUR_NOT_FOUND, 409 STATE_CONFLICT on bots that are not clones, 400 MISSING_FIELD, 404/403 for the bot', async () => {
      const { master, clones } = await family();
      expectError(await api.detach(clones[0].key, 'Nowhere'), 404, 'BEHAVIOUR_NOT_FOUND');
      expectError(await api.detach(clones[0].key), 400, 'MISSING_FIELD');
      expectError(await api.detach(clones[0].key, ''), 400, 'MISSING_FIELD');
      expectError(await server.client.post(`/bots/${clones[0].key}/detach`, { Behaviour: ['Main'], More: 1 }, { token: api.accountToken }), 400, 'INVALID_REQUEST');
      expectError(await api.detach(master.key, 'Main'), 409, 'STATE_CONFLICT');
      const standard = await api.newBot(linkBot('v1'));
      expectError(await api.detach(standard.key, 'Main'), 409, 'STATE_CONFLICT');
      expectError(await api.detach(crypto.randomUUID(), 'Main'), 404, 'BOT_NOT_FOUND');
      const other = await createAccount(server.client, 'standard', ['master-bot']);
      const otherToken = await accountToken(server.client, other.AccountAPIKey);
      expectError(await server.client.post(`/bots/${clones[0].key}/detach`, { Behaviour: 'Main' }, { token: otherToken }), 403, 'TOKEN_SCOPE');
      expectError(await server.client.post(`/bots/${clones[0].key}/detach`, { Behaviour: 'Main' }, { token: clones[0].token }), 403, 'TOKEN_SCOPE');
      assert.equal(await version(clones[0].key), 1, 'nothing changed');
      assert.equal(await version(master.key), 2);
    });

    test('a PUT that changes, renames or removes a linked behaviour, the bot-wide triggers or the start, is 409 BEHAVIOUR_LINKED and changes nothing', async () => {
      const { clones } = await family();
      const [clone] = clones;
      const before = await api.draft(clone.key);
      const attempts: [string, (f: any) => void, Record<string, string>][] = [
        ['a text', (f) => (behaviourOf(f, 'Orders').interactions[1].actions[0].text = 'changed'), { Behaviour: 'Orders' }],
        ['a rename', (f) => (behaviourOf(f, 'Extra').name = 'extra'), { Behaviour: 'Extra' }],
        ['a removal', (f) => (f.behaviours = f.behaviours.filter((b: any) => b.name !== 'Extra')), { Behaviour: 'Extra' }],
        ['a trigger', (f) => (f.triggers[0].match = 'assist'), { Field: 'triggers' }],
      ];
      for (const [what, change, extra] of attempts) {
        const res = await api.put(clone.key, edited(before, change));
        expectError(res, 409, 'BEHAVIOUR_LINKED', what);
        for (const [k, v] of Object.entries(extra)) assert.equal(res.body[k], v, what);
      }
      assert.deepEqual(await api.draft(clone.key), before, 'nothing changed, Version included');
      assert.deepEqual(await api.resetTexts(clone.token, 'lk'), welcome('v1'));
      // The same file unchanged, or with only its own parts changed, is fine.
      assert.equal(
        await api.putOk(
          clone.key,
          edited(before, (f) => (f.description = 'mine')),
        ),
        2,
      );
      // Which behaviour starts the bot follows the master, even between detached behaviours.
      await api.detach(clone.key, 'Main');
      await api.detach(clone.key, 'Extra');
      const moved = edited(await api.draft(clone.key), (f) => {
        delete behaviourOf(f, 'Main').start;
        behaviourOf(f, 'Extra').start = true;
      });
      const res = await api.put(clone.key, moved);
      expectError(res, 409, 'BEHAVIOUR_LINKED', 'start moved');
      assert.equal(res.body.Field, 'start');
    });

    test('a behaviour the clone adds is its own; deleting a detached one links it again', async () => {
      const { master, clones } = await family();
      const [clone] = clones;
      assert.equal((await api.detach(clone.key, 'Extra')).status, 200);
      const file = edited(await api.draft(clone.key), (f) => {
        f.behaviours = f.behaviours.filter((b: any) => b.name !== 'Extra');
        f.behaviours.push({ name: 'Own', interactions: [{ name: 'Hello', start: true, actions: [{ type: 'text', text: 'Own text' }] }] });
      });
      await api.putOk(clone.key, file);
      await api.putOk(master.key, linkBot('v2'));
      await api.publish(master.key);
      const draft = await api.draft(clone.key);
      assert.deepEqual(
        draft.behaviours.map((b: any) => b.name),
        ['Main', 'Orders', 'Extra', 'Own'],
      );
      assert.deepEqual(behaviourOf(draft, 'Extra'), behaviourOf(await api.draft(master.key), 'Extra'), "the master's Extra is back");
      assert.equal(behaviourOf(draft, 'Own').interactions[0].actions[0].text, 'Own text');
      // Own is the clone's: it may change it.
      const mine = edited(draft, (f) => (behaviourOf(f, 'Own').interactions[0].actions[0].text = 'Own text 2'));
      assert.equal((await api.put(clone.key, mine)).status, 200);
    });

    test("a clone that cannot take the master's new content stays exactly as it was; the others are republished", async () => {
      const { master, clones } = await family(2);
      const [broken, fine] = clones;
      await api.detach(broken.key, 'Main');
      const own = edited(await api.draft(broken.key), (f) => behaviourOf(f, 'Main').interactions[0].actions.push({ type: 'goTo', mode: 'absolute', behaviour: 'Extra', cancelFurtherExecution: true }));
      await api.putOk(broken.key, own);
      await api.publish(broken.key); // 4
      const before = await api.draft(broken.key);
      // The master drops Extra, which the broken clone's own Main goes to.
      await api.putOk(master.key, linkBot('v2', { extra: false }));
      const published = await api.publish(master.key);
      const [bad, good] = published.Clones;
      assert.deepEqual({ ...bad, Message: undefined, Problems: undefined }, { APIKey: broken.key, Version: 4, Published: false, Code: 'INVALID_BOT', Message: undefined, Problems: undefined });
      assert.ok(bad.Problems.length > 0 && typeof bad.Message === 'string');
      assert.deepEqual(good, { APIKey: fine.key, Version: 2, Published: true });
      assert.deepEqual(await api.draft(broken.key), before);
      assert.equal(await version(broken.key), 4);
      assert.deepEqual(await api.say(broken.token, 'br', { Text: 'help' }), ['Help v1'], 'still the old linked content');
      assert.deepEqual(await api.resetTexts(fine.token, 'br'), welcome('v2'));
      // Once the clone fixes its own behaviour and publishes the fix, the master's next publish reaches it.
      await api.putOk(
        broken.key,
        edited(before, (f) => behaviourOf(f, 'Main').interactions[0].actions.pop()),
      );
      await api.publish(broken.key);
      const again = await api.publish(master.key);
      assert.equal(again.Clones[0].Published, true, JSON.stringify(again.Clones));
      assert.deepEqual(await api.say(broken.token, 'br', { Text: 'help' }), ['Help v2']);
    });

    test("a master's rollback republishes its clones; a clone's rollback keeps the master's linked content", async () => {
      const { master, clones } = await family();
      const [clone] = clones;
      await api.detach(clone.key, 'Main'); // 2
      await api.putOk(
        clone.key,
        edited(await api.draft(clone.key), (f) => setWelcome(f, 'own A')),
      ); // 3
      await api.publish(clone.key); // 4
      await api.putOk(
        clone.key,
        edited(await api.draft(clone.key), (f) => setWelcome(f, 'own B')),
      ); // 5
      await api.publish(clone.key); // 6
      await api.putOk(master.key, linkBot('v2'));
      await api.publish(master.key); // clone 7
      const rolled = await server.client.post(`/bots/${clone.key}/rollback`, { Version: 4 }, { token: api.accountToken });
      assert.deepEqual(rolled.body, { APIKey: clone.key, Version: 8 });
      assert.deepEqual(await api.resetTexts(clone.token, 'rb'), ['own A', 'Pick one']);
      assert.deepEqual(await api.say(clone.token, 'rb', { Text: 'help' }), ['Help v2'], "linked content stays the master's");
      const back = await server.client.post(`/bots/${master.key}/rollback`, { Version: 1 }, { token: api.accountToken });
      assert.equal(back.status, 200, back.text);
      assert.deepEqual(back.body.Clones, [{ APIKey: clone.key, Version: 9, Published: true }]);
      assert.deepEqual(await api.say(clone.token, 'rb', { Text: 'help' }), ['Help v1']);
      assert.deepEqual(await api.resetTexts(clone.token, 'rb'), ['own A', 'Pick one']);
    });
  });
}
