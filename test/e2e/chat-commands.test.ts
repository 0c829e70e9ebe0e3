// api.md section 3, rules 5 (command payloads) and 6 (forced position).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buttonCommand, chatOk, NOT_UNDERSTOOD, ORDER_QUESTION, positionOf, summary, uid, variablesOf, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const TRACK_ID = '6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e01';
const ORDER_INPUT_ID = '6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e21';

for (const kind of databaseKinds()) {
  describe(`chat: command payloads and forced positions (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
    });
    after(() => server.close());

    test('rule 5: a payload runs its button, from the latest reply or an older one; last_command holds the text', async () => {
      const user = uid('cmd');
      const welcome = await chatOk(server, support.botToken, { UserId: user });
      const asked = await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Track an order') });
      assert.deepEqual(summary(asked.Parts), [ORDER_QUESTION]);
      assert.equal((await variablesOf(server, support.botToken, user)).last_command, 'Track an order');
      // a button of the welcome message, clicked while the order input waits
      const browse = await chatOk(server, support.botToken, { UserId: user, Command: buttonCommand(welcome.Parts, 'Browse products') });
      assert.deepEqual(summary(browse.Parts), [[5, null]]);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Products');
      assert.equal((await variablesOf(server, support.botToken, user)).last_command, 'Browse products');
    });

    test('rule 5: an unknown GUID, a non-GUID and an input id as payload all run the fallback with 200', async () => {
      const user = uid('cmd');
      await chatOk(server, support.botToken, { UserId: user });
      for (const payload of ['0b7e4d1c-1111-4222-8333-944455556666', 'not-a-guid', ORDER_INPUT_ID]) {
        // misses is reset before each payload (variables apply first), so the fallback never escalates
        const reply = await chatOk(server, support.botToken, { UserId: user, Command: payload, Variables: { misses: null } });
        assert.deepEqual(summary(reply.Parts), [NOT_UNDERSTOOD], payload);
        assert.equal(reply.ControlType, 0);
        assert.equal((await variablesOf(server, support.botToken, user)).misses, '1');
      }
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Not Understood');
    });

    test("rule 5: in another behaviour an unknown payload runs that behaviour's fallback", async () => {
      const user = uid('cmd');
      await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'Orders' });
      const reply = await chatOk(server, support.botToken, { UserId: user, Command: 'b3b0c0de-0000-4000-8000-000000000000' });
      // Orders Fallback goes to Main/Not Understood
      assert.deepEqual(summary(reply.Parts), [NOT_UNDERSTOOD]);
      assert.deepEqual(
        reply.Parts.map((p: any) => p.InteractionName),
        ['Not Understood'],
      );
      // the click cancelled the waiting input: the order number is now an unknown text
      const text = await chatOk(server, support.botToken, { UserId: user, Text: '123456' });
      assert.deepEqual(summary(text.Parts), [NOT_UNDERSTOOD]);
    });

    test('rule 5: buttons a request built itself get fresh payloads that run the fallback', async () => {
      const user = uid('cmd');
      await chatOk(server, support.botToken, { UserId: user });
      const injected = await chatOk(
        server,
        support.botToken,
        { UserId: user, Parts: [{ Type: 13, Text: 'Pick one', Parts: [{ Type: 1, Text: 'Track an order', Command: TRACK_ID }] }] },
        { DIRECTION: 'BOT' },
      );
      const forged = injected.Parts[0].Parts[0];
      assert.equal(forged.Type, 1);
      assert.equal(forged.Text, 'Track an order');
      assert.match(forged.Command, /^[0-9a-f-]{36}$/);
      assert.notEqual(forged.Command, TRACK_ID);
      const clicked = await chatOk(server, support.botToken, { UserId: user, Command: forged.Command });
      assert.deepEqual(summary(clicked.Parts), [NOT_UNDERSTOOD]);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Not Understood');
    });

    test('rule 6: forced position by name (case-insensitive), with and without interaction', async () => {
      const user = uid('force');
      await chatOk(server, support.botToken, { UserId: user });
      const orders = await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'orders' });
      assert.deepEqual(summary(orders.Parts), [ORDER_QUESTION]);
      assert.equal(orders.EnableUserChat, true);
      assert.equal(await positionOf(server, support.botToken, user), 'Orders/Ask Number');
      const variables = await variablesOf(server, support.botToken, user);
      assert.equal(variables.goto_source_behaviour, 'Main');
      assert.equal(variables.goto_source_interaction, 'Welcome');

      const products = await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'MAIN', ForcedInteraction: 'products' });
      assert.deepEqual(summary(products.Parts), [[5, null]]);
      assert.equal(products.EnableUserChat, false);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Products');
      // an interaction alone is looked up in the current behaviour
      const anything = await chatOk(server, support.botToken, { UserId: user, ForcedInteraction: 'Product Chosen' });
      assert.equal(anything.Parts[0].Text, 'Good choice: the .');
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Anything Else');
      assert.equal((await variablesOf(server, support.botToken, user)).cart_items, '1');
    });

    test('rule 6: forced position by ForcedBehaviourKey (DefaultBehaviour.APIKey and another behaviour key)', async () => {
      const config = await server.client.get('/custom/config', { token: support.botToken });
      assert.equal(config.status, 200);
      assert.equal(config.body.DefaultBehaviour.Name, 'Main');
      assert.equal(typeof config.body.DefaultBehaviour.APIKey, 'string');
      const draft = await server.client.get(`/bots/${support.botKey}`, { token: support.accountToken });
      assert.equal(draft.status, 200);
      const ordersKey = draft.body.behaviours.find((b: any) => b.name === 'Orders').apiKey;
      assert.equal(draft.body.behaviours.find((b: any) => b.name === 'Main').apiKey, config.body.DefaultBehaviour.APIKey);

      const user = uid('force');
      const orders = await chatOk(server, support.botToken, { UserId: user, ForcedBehaviourKey: ordersKey });
      assert.deepEqual(summary(orders.Parts), [ORDER_QUESTION]);
      assert.equal(await positionOf(server, support.botToken, user), 'Orders/Ask Number');
      const main = await chatOk(server, support.botToken, { UserId: user, ForcedBehaviourKey: config.body.DefaultBehaviour.APIKey });
      assert.deepEqual(summary(main.Parts), WELCOME);
      assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome');
      // a key with an interaction name
      const products = await chatOk(server, support.botToken, {
        UserId: user,
        ForcedBehaviourKey: config.body.DefaultBehaviour.APIKey,
        ForcedInteraction: 'Products',
      });
      assert.deepEqual(summary(products.Parts), [[5, null]]);
    });

    test('rule 6: unknown behaviour, interaction or key goes to the start interaction, never an error', async () => {
      const user = uid('force');
      await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'Orders' });
      const cases = [
        { ForcedBehaviour: 'Nowhere' },
        { ForcedBehaviour: 'Orders', ForcedInteraction: 'Nowhere' },
        { ForcedInteraction: 'Nowhere' },
        { ForcedBehaviourKey: 'no-such-key' },
        { ForcedBehaviour: 'Orders', ForcedBehaviourKey: 'no-such-key' },
      ];
      for (const forced of cases) {
        await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'Orders' });
        const reply = await chatOk(server, support.botToken, { UserId: user, ...forced });
        assert.deepEqual(summary(reply.Parts), WELCOME, JSON.stringify(forced));
        assert.equal(await positionOf(server, support.botToken, user), 'Main/Welcome', JSON.stringify(forced));
      }
      // on a brand-new conversation too
      const fresh = await chatOk(server, support.botToken, { UserId: uid('force'), ForcedBehaviourKey: 'nope' });
      assert.deepEqual(summary(fresh.Parts), WELCOME);
    });

    test('rule 6: a forced position plus a Text runs the goto first, then handles the text', async () => {
      const user = uid('force');
      await chatOk(server, support.botToken, { UserId: user });
      const reply = await chatOk(server, support.botToken, { UserId: user, ForcedBehaviour: 'Orders', Text: '123456' });
      assert.deepEqual(summary(reply.Parts), [ORDER_QUESTION, [0, 'Order 123456 is on its way.'], [6, "May we e-mail you updates? Type your address, or 'no'."]]);
      assert.equal((await variablesOf(server, support.botToken, user)).order_number, '123456');
      assert.equal(await positionOf(server, support.botToken, user), 'Orders/Lookup');
      const ready = await chatOk(server, support.botToken, { UserId: user, Command: 'READY', HistoryLimit: 4 });
      assert.deepEqual(summary(ready.Parts), [[19, '123456'], ...summary(reply.Parts)]);
      // on a new conversation the text after a forced position is a normal text, not a start text
      const fresh = uid('force');
      const first = await chatOk(server, support.botToken, { UserId: fresh, ForcedBehaviour: 'Orders', Text: '654321' });
      assert.deepEqual(summary(first.Parts).slice(0, 2), [ORDER_QUESTION, [0, 'Order 654321 is on its way.']]);
    });
  });
}
