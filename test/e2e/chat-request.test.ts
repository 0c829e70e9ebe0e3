// api.md section 3: the request itself — order inside one request (variables and tags, then the
// forced position, then the text), Variables/Tags/DropTags, case-insensitive names, user-id header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ASK_HUMAN, botFile, chat, chatOk, summary, text, uid, valuesOf, variablesOf, WELCOME } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const VIP: [number, string] = [0, 'Good to see you again, valued customer.'];

/** Main/Start, a fallback that reads `role`, and a behaviour Gate whose start reads `level` and tag `vip`. */
const gateBot = () =>
  botFile(
    [
      { name: 'Start', actions: [text('start')] },
      {
        name: 'Fallback',
        fallback: true,
        actions: [
          {
            type: 'variableSwitch',
            variable: 'role',
            criteria: 'equals',
            value: 'admin',
            then: [text('Hello admin, you said {{last_user_text}}')],
            else: [text('Hello guest')],
          },
        ],
      },
    ],
    {
      behaviours: [
        {
          name: 'Gate',
          interactions: [
            {
              name: 'Door',
              start: true,
              actions: [
                { type: 'variableSwitch', variable: 'level', criteria: 'equals', value: 'gold', then: [text('Gold lane')], else: [text('Standard lane')] },
                { type: 'tagSwitch', tag: 'vip', then: [text('VIP')] },
              ],
            },
          ],
        },
      ],
    },
  );

for (const kind of databaseKinds()) {
  describe(`chat: request fields (${kind})`, () => {
    let server: TestServer;
    let support: Tenant;
    let gate: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      support = await createTenant(server.client);
      gate = await createTenant(server.client, gateBot());
    });
    after(() => server.close());

    test('variables and tags are applied before the forced position runs', async () => {
      const user = uid('order');
      const first = await chatOk(server, gate.botToken, { UserId: user, Variables: { level: 'gold' }, Tags: ['vip'], ForcedBehaviour: 'Gate' });
      assert.deepEqual(summary(first.Parts), [
        [0, 'Gold lane'],
        [0, 'VIP'],
      ]);
      const second = await chatOk(server, gate.botToken, {
        UserId: user,
        Variables: [{ Name: 'level', Value: null }],
        DropTags: ['vip'],
        ForcedBehaviour: 'Gate',
      });
      assert.deepEqual(summary(second.Parts), [[0, 'Standard lane']]);
    });

    test('variables are applied before the text is handled; forced position before the text', async () => {
      const user = uid('order');
      await chatOk(server, gate.botToken, { UserId: user });
      const guest = await chatOk(server, gate.botToken, { UserId: user, Text: 'hi' });
      assert.deepEqual(summary(guest.Parts), [[0, 'Hello guest']]);
      const admin = await chatOk(server, gate.botToken, { UserId: user, Text: 'hi there', Variables: [{ Name: 'role', Value: 'admin' }] });
      assert.deepEqual(summary(admin.Parts), [[0, 'Hello admin, you said hi there']]);
      const all = await chatOk(server, gate.botToken, {
        UserId: user,
        Text: 'x',
        ForcedBehaviour: 'Gate',
        Variables: { role: 'guest', level: 'gold' },
      });
      // Gate has no fallback: the text runs the start behaviour's
      assert.deepEqual(summary(all.Parts), [
        [0, 'Gold lane'],
        [0, 'Hello guest'],
      ]);
    });

    test('tags sent with a RESET are seen by the start interaction; DropTags remove them', async () => {
      const user = uid('tags');
      const vip = await chatOk(server, support.botToken, { UserId: user, Tags: ['vip', 'beta'] });
      assert.deepEqual(summary(vip.Parts), [WELCOME[0], VIP, WELCOME[1]]);
      assert.deepEqual((await valuesOf(server, support.botToken, user)).Tags, ['vip', 'beta']);
      const dropped = await chatOk(server, support.botToken, { UserId: user, Command: 'RESET', DropTags: ['vip', 'never-set'] });
      assert.deepEqual(summary(dropped.Parts), WELCOME);
      assert.deepEqual((await valuesOf(server, support.botToken, user)).Tags, ['beta']);
      // adding a tag twice keeps one
      await chatOk(server, support.botToken, { UserId: user, Command: 'READY', Tags: ['beta'] });
      assert.deepEqual((await valuesOf(server, support.botToken, user)).Tags, ['beta']);
    });

    test('Variables as an array and as an object; numbers and booleans become text; null deletes', async () => {
      const user = uid('vars');
      await chatOk(server, support.botToken, {
        UserId: user,
        Variables: [
          { Name: 'a', Value: 'one' },
          { Name: 'b', Value: 2 },
        ],
      });
      await chatOk(server, support.botToken, { UserId: user, Command: 'READY', Variables: { c: true, d: 'four', company: 'Globex' } });
      let variables = await variablesOf(server, support.botToken, user);
      assert.equal(variables.a, 'one');
      assert.equal(variables.b, '2');
      assert.equal(variables.c, 'true');
      assert.equal(variables.d, 'four');
      assert.equal(variables.company, 'Globex');
      await chatOk(server, support.botToken, { UserId: user, Command: 'PENDING', Variables: { a: null } });
      await chatOk(server, support.botToken, {
        UserId: user,
        Command: 'READY',
        Variables: [
          { Name: 'b', Value: null },
          { Name: 'never', Value: null },
        ],
      });
      variables = await variablesOf(server, support.botToken, user);
      assert.equal(Object.hasOwn(variables, 'a'), false);
      assert.equal(Object.hasOwn(variables, 'b'), false);
      assert.equal(Object.hasOwn(variables, 'never'), false);
      assert.equal(variables.d, 'four');
      // the new value is used by the same request's turn
      const reset = await chatOk(server, support.botToken, { UserId: user, Variables: { company: 'Initech' } });
      assert.equal(reset.Parts[0].Text, 'Welcome to Initech support!');
    });

    test('malformed Variables and Tags are refused with 400 and change nothing', async () => {
      const user = uid('vars');
      await chatOk(server, support.botToken, { UserId: user });
      for (const body of [
        { UserId: user, Variables: 'a=1' },
        { UserId: user, Variables: [{ Name: 'a' }] },
        { UserId: user, Variables: [{ Name: 'a', Value: { nested: 1 } }], Tags: ['x'] },
        { UserId: user, Tags: 'vip' },
      ]) {
        const res = await chat(server, support.botToken, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
        assert.equal(typeof res.body.Field, 'string');
      }
      const values = await valuesOf(server, support.botToken, user);
      assert.deepEqual(values.Tags, []);
      assert.equal(
        values.Variables.some((v: any) => v.Name === 'a'),
        false,
      );
    });

    test('field names are matched case-insensitively', async () => {
      const user = uid('case');
      const reply = await chatOk(server, support.botToken, { userid: user, TEXT: 'human' });
      assert.equal(reply.UserId, user);
      assert.deepEqual(summary(reply.Parts), [ASK_HUMAN]);
      const ready = await chatOk(server, support.botToken, { USERID: user, command: 'READY', historylimit: 1 });
      assert.deepEqual(summary(ready.Parts), [ASK_HUMAN]);
      await chatOk(server, support.botToken, { userId: user, forcedbehaviour: 'Orders', variables: { Mixed: 'Case' }, tags: ['t1'] });
      const values = await valuesOf(server, support.botToken, user);
      assert.equal(values.Context.BehaviorName, 'Orders');
      assert.deepEqual(values.Tags, ['t1']);
      assert.equal(values.Variables.find((v: any) => v.Name === 'Mixed')?.Value, 'Case');
      await chatOk(server, support.botToken, { userId: user, Command: 'READY', DROPTAGS: ['t1'] });
      assert.deepEqual((await valuesOf(server, support.botToken, user)).Tags, []);
    });

    test('field names inside Variables items are case-insensitive too', async () => {
      const user = uid('case');
      const res = await chat(server, support.botToken, { UserId: user, variables: [{ name: 'lower', value: 'yes' }] });
      assert.equal(res.status, 200, res.text);
      assert.equal((await variablesOf(server, support.botToken, user)).lower, 'yes');
    });

    test('the user id may come in the user-id header', async () => {
      const user = uid('header');
      const reply = await chatOk(server, support.botToken, { Text: 'agent' }, { 'user-id': user });
      assert.equal(reply.UserId, user);
      assert.deepEqual(summary(reply.Parts), [ASK_HUMAN]);
      const ready = await chatOk(server, support.botToken, { Command: 'READY' }, { 'user-id': user });
      assert.equal(ready.UserId, user);
      assert.deepEqual(summary(ready.Parts), [[19, 'agent'], ASK_HUMAN]);
    });

    test('a UserId over 256 characters or empty is refused', async () => {
      for (const body of [{ UserId: 'x'.repeat(257) }, { UserId: '' }]) {
        const res = await chat(server, support.botToken, body);
        assert.equal(res.status, 400);
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const header = await chat(server, support.botToken, {}, { 'user-id': 'y'.repeat(257) });
      assert.equal(header.status, 400);
      assert.equal(header.body.Code, 'INVALID_REQUEST');
      const max = await chatOk(server, support.botToken, { UserId: 'z'.repeat(256) });
      assert.equal(max.UserId, 'z'.repeat(256));
    });
  });
}
