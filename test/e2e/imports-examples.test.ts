// importers.md "Done means": each real export of ../shared/imports, imported unchanged (a
// Dialogflow agent zipped as the console exports it, the Rasa project as a .tar.gz and as a .zip,
// the Typebot templates as their JSON), makes a bot that answers the project's own example
// conversations through /custom/chat with the same texts and buttons, and its report lists what
// was skipped.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botToken, createAccount, accountToken } from '../support/fixtures.js';
import { buttonCommand, chatOk, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { importFile, readShared, tarGzOf, zipOf } from '../support/import-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`imports of the real exports (${kind})`, () => {
    let server: TestServer;
    let account: { AccountAPIKey: string };
    let token: string;
    before(async () => {
      server = await startTestServer(kind);
      account = await createAccount(server.client);
      token = await accountToken(server.client, account.AccountAPIKey);
    });
    after(() => server.close());

    /** Imports, checks the 201, and returns a function that chats with the new bot as one user. */
    async function imported(file: { name: string; data: Buffer }, format: string) {
      const res = await importFile(server.client, token, file);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Format, format);
      assert.equal(res.body.Version, 1);
      const bot = await botToken(server.client, account.AccountAPIKey, res.body.APIKey, res.body.APISecret);
      const user = uid('import');
      const say = async (body: Record<string, unknown>) => (await chatOk(server, bot, { UserId: user, ...body })).Parts;
      return { res, say };
    }
    const texts = (parts: any[]) => parts.filter((p) => p.Type === 0 || p.Type === 13).map((p) => p.Text);

    test('Rasa moodbot (.tar.gz): the test stories of the project are answered as Rasa does', async () => {
      const { res, say } = await imported({ name: 'moodbot.tar.gz', data: await tarGzOf('rasa/moodbot-with-action') }, 'rasa');
      assert.deepEqual(res.body.Report.Converted, { Behaviours: 1, Interactions: 9, Intents: 8, Entities: 0, Variables: 1, Actions: 25 });
      assert.ok(
        res.body.Report.Skipped.some((s: any) => s.Path === 'data/stories.yml: $.stories[3].steps[3]' && s.What === 'the custom action action_show_time'),
        res.text,
      );
      await say({ Command: 'RESET' });
      // tests/test_stories.yml "sad path 1" and "happy path 2"
      assert.deepEqual(texts(await say({ Text: 'hello' })), ['Hey! How are you?']);
      const cheer = await say({ Text: 'not good' });
      assert.deepEqual(
        cheer.map((p: any) => [p.Type, p.Text, p.Url ?? null]),
        [
          [0, 'Here is something to cheer you up:', null],
          [3, null, 'https://i.imgur.com/nGF1K8f.jpg'],
          [0, 'Did that help you?', null],
        ],
      );
      assert.deepEqual(texts(await say({ Text: 'yes' })), ['Great, carry on!']);
      assert.deepEqual(texts(await say({ Text: 'hello there!' })), ['Hey! How are you?']);
      assert.deepEqual(texts(await say({ Text: 'amazing' })), ['Great, carry on!']);
      assert.deepEqual(texts(await say({ Text: 'bye' })), ['Bye']);
      // "sad path 2" and "bot challenge"
      assert.deepEqual(texts(await say({ Text: 'hi' })), ['Hey! How are you?']);
      assert.deepEqual(texts(await say({ Text: 'not good' })), ['Here is something to cheer you up:', 'Did that help you?']);
      assert.deepEqual(texts(await say({ Text: 'not really' })), ['Bye']);
      assert.deepEqual(texts(await say({ Text: 'are you a bot?' })), ['I am a bot, powered by Rasa.']);
    });

    test('Rasa moodbot (.zip of its folder): the same bot', async () => {
      const res = await importFile(server.client, token, { name: 'moodbot.zip', data: await zipOf('rasa/moodbot-with-action', 'moodbot-with-action/') }, {}, true);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.Format, 'rasa');
      assert.equal(res.body.Report.Converted.Interactions, 9);
    });

    test('Dialogflow ES place finder (.zip): welcome, intents, fallback; the webhook in Skipped', async () => {
      const { res, say } = await imported({ name: 'place-finder.zip', data: await zipOf('dialogflow/place-finder') }, 'dialogflow');
      const skipped = res.body.Report.Skipped.map((s: any) => s.Path);
      assert.ok(skipped.includes('agent.json: $.webhook'), res.text);
      assert.ok(skipped.includes('intents/place_search.json: $.webhookUsed'), res.text);
      const welcome = ['Hi! How are you doing?', 'Hello! How can I help you?', 'Good day! What can I do for you today?', 'Greetings! How can I assist?'];
      const [hello] = texts(await say({ Command: 'RESET' }));
      assert.ok(welcome.includes(hello), hello);
      const [thanks] = texts(await say({ Text: 'thank you' }));
      assert.ok(['You are very welcome!', 'No worries :)', 'Happy I could help!'].includes(thanks), thanks);
      const [bye] = texts(await say({ Text: 'goodbye' }));
      assert.ok(['Talk to you later.', 'Goodbye!'].includes(bye), bye);
      const [fallback] = texts(await say({ Text: 'qwertzuiop asdfgh' }));
      assert.match(fallback, /again|that|time|rephrase|repeat/i);
    });

    test('Typebot lead generation (JSON): texts, the image, the buttons and the inputs in order', async () => {
      const { res, say } = await imported({ name: 'lead-gen.json', data: readShared('typebot/lead-gen/lead-gen.json') }, 'typebot');
      assert.equal(res.body.Name, 'Lead Generation');
      const start = await say({ Command: 'RESET' });
      assert.deepEqual(
        start.map((p: any) => [p.Type, p.Text]),
        [
          [0, 'Welcome to **AA** (Awesome Agency)'],
          [3, null],
          [13, ''],
        ],
      );
      assert.deepEqual(
        start[2].Parts.map((p: any) => p.Text),
        ['Hi!'],
      );
      assert.deepEqual(texts(await say({ Command: buttonCommand(start, 'Hi!') })), ["What's your name?"]);
      assert.deepEqual(texts(await say({ Text: 'Ada' })), ['Great! Nice to meet you Ada', "What's the best email we can reach you at?"]);
      assert.deepEqual(texts(await say({ Text: 'not an email' })), ["Sorry, I didn't get that."]);
      const services = await say({ Text: 'ada@example.org' });
      assert.deepEqual(
        services.map((p: any) => p.Text),
        ['What services are you interested in?'],
      );
      assert.deepEqual(
        services[0].Parts.map((p: any) => p.Text),
        ['Website dev', 'Content Marketing', 'Social Media', 'UI / UX Design'],
      );
      assert.deepEqual(texts(await say({ Command: buttonCommand(services, 'Social Media') })), ['Can you tell me a bit more about your needs?']);
      assert.deepEqual(texts(await say({ Text: 'A new website' })), ['Perfect!', "We'll get back to you at ada@example.org"]);
    });

    test('Typebot digital product payment (JSON): the choice branches; payment and e-mail blocks in Skipped', async () => {
      const { res, say } = await imported({ name: 'digital-product-payment.json', data: readShared('typebot/digital-product-payment/digital-product-payment.json') }, 'typebot');
      assert.deepEqual(
        res.body.Report.Skipped.map((s: any) => [s.Path, s.What]),
        [
          ['digital-product-payment.json: $.groups[4].blocks[2]', 'a "payment input" block'],
          ['digital-product-payment.json: $.groups[5].blocks[1]', 'a "Email" block'],
        ],
      );
      assert.deepEqual(texts(await say({ Command: 'RESET' })), ['Hi there 👋', "What's your name?"]);
      const demo = await say({ Text: 'Ada' });
      assert.deepEqual(
        demo.map((p: any) => p.Type),
        [0, 0, 0, 9, 0, 13],
      );
      assert.equal(demo[0].Text, 'Cool, nice to meet you Ada');
      assert.equal(demo[5].Text, 'Are you interested in receive a copy of this template?');
      assert.deepEqual(
        demo[5].Parts.map((p: any) => p.Text),
        ['Hell yes!', "I'm ok, thanks."],
      );
      const bye = await say({ Command: buttonCommand(demo, "I'm ok, thanks.") });
      assert.deepEqual(
        bye.map((p: any) => [p.Type, p.Text]),
        [
          [0, 'Oh ok, feel free to come back when you feel ready Ada!'],
          [3, null],
        ],
      );
    });
  });
}
