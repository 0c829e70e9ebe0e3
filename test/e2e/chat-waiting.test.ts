// api.md rule 6b: while a conversation waits for a person (ControlType 1), a visitor's text or
// button runs no flow, trigger or intent; it is stored for the operators, and the bot says its
// waiting text once per hand-over request. `whileWaiting: "bot"` keeps the flow running; forced
// positions and RESET always run it. (Issue 37 item 2: "my rear brake squeaks… order under
// ann@example.com" fired the order-tracking trigger while the visitor waited for a person.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, buttonCommand, chatOk, positionOf, summary, text, uid } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ASKING: [number, string] = [0, 'Asking a person'];
const waitingBot = (operators?: Record<string, unknown>) =>
  botFile(
    [
      {
        name: 'Start',
        actions: [
          text('Hi'),
          { type: 'buttons', text: 'Choose', buttons: [{ type: 'button', text: 'Track', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Order' }] }] },
        ],
      },
      { name: 'Order', actions: [text('What is your order number?')] },
      { name: 'Human', actions: [text('Asking a person'), { type: 'operator', mode: 'request' }] },
      { name: 'Back', actions: [text('Back with the bot'), { type: 'operator', mode: 'bot' }] },
      { name: 'Fallback', fallback: true, actions: [text('fallback')] },
    ],
    {
      ...(operators ? { settings: { operators } } : {}),
      triggers: [
        { match: 'human', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Human' }] },
        { match: 'order', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Order' }] },
      ],
    },
  );

for (const kind of databaseKinds()) {
  describe(`chat: waiting for a person, rule 6b (${kind})`, () => {
    let server: TestServer;
    let quiet: Tenant;
    let custom: Tenant;
    let silent: Tenant;
    let talking: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      quiet = await createTenant(server.client, waitingBot());
      custom = await createTenant(server.client, waitingBot({ waitingText: 'Hang on, Ann is coming.' }));
      silent = await createTenant(server.client, waitingBot({ waitingText: '' }));
      talking = await createTenant(server.client, waitingBot({ whileWaiting: 'bot' }));
    });
    after(() => server.close());

    async function waiting(tenant: Tenant): Promise<{ user: string; track: string }> {
      const user = uid('waiting');
      const hello = await chatOk(server, tenant.botToken, { UserId: user });
      const track = buttonCommand(hello.Parts, 'Track');
      const asked = await chatOk(server, tenant.botToken, { UserId: user, Text: 'human' });
      assert.deepEqual(summary(asked.Parts), [ASKING]);
      assert.equal(asked.ControlType, 1);
      return { user, track };
    }

    test('by default a text runs no trigger: the waiting text once, then silence; texts are stored', async () => {
      const { user, track } = await waiting(quiet);
      const first = await chatOk(server, quiet.botToken, { UserId: user, Text: 'My rear brake squeaks, order under ann@example.com' });
      assert.deepEqual(summary(first.Parts), [[0, 'A colleague will be with you shortly.']]);
      assert.equal(first.ControlType, 1);
      const second = await chatOk(server, quiet.botToken, { UserId: user, Text: 'order 123456' });
      assert.deepEqual(second.Parts, []);
      assert.equal(second.ControlType, 1);
      const click = await chatOk(server, quiet.botToken, { UserId: user, Command: track });
      assert.deepEqual(click.Parts, [], 'a button payload is held the same way');
      assert.equal(await positionOf(server, quiet.botToken, user), 'Main/Human', 'no flow ran');
      const history = await chatOk(server, quiet.botToken, { UserId: user, Command: 'READY' });
      assert.deepEqual(summary(history.Parts).slice(-5), [
        ASKING,
        [19, 'My rear brake squeaks, order under ann@example.com'],
        [0, 'A colleague will be with you shortly.'],
        [19, 'order 123456'],
        [19, 'Track'],
      ]);
    });

    test('the waiting text is the bot\'s own, or nothing when it is ""', async () => {
      const a = await waiting(custom);
      assert.deepEqual(summary((await chatOk(server, custom.botToken, { UserId: a.user, Text: 'hello?' })).Parts), [[0, 'Hang on, Ann is coming.']]);
      assert.deepEqual((await chatOk(server, custom.botToken, { UserId: a.user, Text: 'hello??' })).Parts, []);
      const b = await waiting(silent);
      const reply = await chatOk(server, silent.botToken, { UserId: b.user, Text: 'hello?' });
      assert.deepEqual(reply.Parts, []);
      assert.equal(reply.ControlType, 1);
    });

    test('forced positions and RESET still run the flow; a new request says the waiting text again', async () => {
      const { user } = await waiting(quiet);
      assert.deepEqual(summary((await chatOk(server, quiet.botToken, { UserId: user, Text: 'anyone?' })).Parts), [[0, 'A colleague will be with you shortly.']]);
      const forced = await chatOk(server, quiet.botToken, { UserId: user, ForcedBehaviour: 'Main', ForcedInteraction: 'Order' });
      assert.deepEqual(summary(forced.Parts), [[0, 'What is your order number?']]);
      assert.equal(forced.ControlType, 1);
      const back = await chatOk(server, quiet.botToken, { UserId: user, ForcedBehaviour: 'Main', ForcedInteraction: 'Back' });
      assert.deepEqual(summary(back.Parts), [[0, 'Back with the bot']]);
      assert.equal(back.ControlType, 0);
      assert.deepEqual(summary((await chatOk(server, quiet.botToken, { UserId: user, Text: 'order' })).Parts), [[0, 'What is your order number?']], 'state 0: triggers run');
      assert.deepEqual(summary((await chatOk(server, quiet.botToken, { UserId: user, Text: 'human' })).Parts), [ASKING]);
      assert.deepEqual(summary((await chatOk(server, quiet.botToken, { UserId: user, Text: 'still there?' })).Parts), [[0, 'A colleague will be with you shortly.']]);
      const reset = await chatOk(server, quiet.botToken, { UserId: user, Command: 'RESET' });
      assert.deepEqual(summary(reset.Parts).slice(0, 1), [[0, 'Hi']]);
    });

    test('whileWaiting "bot" keeps the flow running while the conversation waits', async () => {
      const { user } = await waiting(talking);
      const reply = await chatOk(server, talking.botToken, { UserId: user, Text: 'order' });
      assert.deepEqual(summary(reply.Parts), [[0, 'What is your order number?']]);
      assert.equal(reply.ControlType, 1);
    });

    test('an unknown whileWaiting value is refused with the bot file', async () => {
      const res = await server.client.post('/bots', waitingBot({ whileWaiting: 'loud' }), { token: quiet.accountToken });
      assert.equal(res.status, 400);
      assert.equal(res.body.Code, 'INVALID_BOT');
    });
  });
}
