// agents.md "Tools", approvals: a call of an `approval: true` tool is not made; the agent says the
// approval message and the conversation waits (texts are kept, the model is not asked) until an
// account or an operator decides. Approving makes the call (with edited arguments, checked against
// the tool's schema) and the agent goes on, its answer delivered as a BOT message (webhook);
// rejecting tells the model. A decision is made once, even by two racing requests.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AiDouble } from '../support/ai-double.js';
import { approvalBot, askForApproval, WAIT } from '../support/approval-kit.js';
import { chatOk, summary } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { setCustomChannel } from '../support/webhook-kit.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

for (const kind of databaseKinds()) {
  describe(`agent approvals (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let shop: WebhookReceiver;
    let hooks: WebhookReceiver;
    let tenant: Tenant;
    let botId: string;
    let n = 0;
    before(async () => {
      ai = await AiDouble.start();
      shop = await WebhookReceiver.start();
      hooks = await WebhookReceiver.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, approvalBot(shop.url.replace(/\/hook$/, '')));
      assert.equal((await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: tenant.accountToken })).status, 200);
      await setCustomChannel(server, tenant, { webhookUrl: hooks.url });
      botId = await botIdOf(server, tenant.botKey);
    });
    after(async () => {
      await server.close();
      await ai.close();
      await shop.close();
      await hooks.close();
    });
    beforeEach(() => {
      ai.reset();
      shop.calls.length = 0;
    });

    const api = (path: string) => `/bots/${tenant.botKey}/approvals${path}`;
    const list = async () => (await server.client.get(api(''), { token: tenant.accountToken })).body.Result as any[];
    const decide = (id: string, verb: 'approve' | 'reject', body: unknown = {}) => server.client.post(api(`/${id}/${verb}`), body, { token: tenant.accountToken });
    /** a conversation whose agent asked to call `tool` and now waits for an approval; returns its approval */
    const waiting = async (tool = 'cancel_order', order = '123456') => {
      const user = `approval-${kind}-${n++}`;
      const reply = await askForApproval(server, tenant.botToken, ai, user, tool, order);
      const approval = (await list()).find((a) => a.UserId === user);
      assert.ok(approval, 'the approval is listed');
      return { user, reply, approval };
    };
    const botMessage = (user: string, said: string) =>
      hooks.waitFor((r) => r.calls.some((c) => c.body?.UserId === user && c.body?.Direction === 'BOT' && JSON.stringify(c.body?.Reply?.Parts ?? []).includes(said)), `BOT "${said}" for ${user}`);

    test('the call waits: the agent says the approval message, nothing is called, a user text does not reach the model', async () => {
      const { user, reply, approval } = await waiting();
      assert.deepEqual(summary(reply.Parts), [[0, WAIT]]);
      assert.equal(shop.calls.length, 0);
      assert.deepEqual(
        { ...approval, ApprovalId: undefined, At: undefined },
        { ApprovalId: undefined, UserId: user, Tool: 'cancel_order', Arguments: { order: '123456' }, Status: 'pending', At: undefined },
      );
      assert.match(approval.At, /^\d{4}-\d\d-\d\dT/);
      assert.equal(ai.requests.length, 1);
      const later = await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello? anyone?' });
      assert.deepEqual(later.Parts, []);
      assert.equal(ai.requests.length, 1, 'the model is not called while the approval waits');
      // the tool's own approvalMessage
      const refund = await waiting('refund');
      assert.deepEqual(summary(refund.reply.Parts), [[0, 'A colleague will check the refund.']]);
    });

    test('approve with edited arguments: the call is made with them, the model goes on, its answer is a BOT message; a second decision is 409', async () => {
      const { user, approval } = await waiting();
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'still there?' });
      const bad = await decide(approval.ApprovalId, 'approve', { Arguments: { order: '12' } });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Code, 'APPROVAL_ARGUMENTS_INVALID');
      assert.equal(bad.body.Message, 'Arguments do not fit: /order must match pattern "^[0-9]{6}$".');
      assert.equal((await list()).find((a) => a.ApprovalId === approval.ApprovalId).Status, 'pending', 'a refused edit decides nothing');
      assert.equal(shop.calls.length, 0);

      ai.next({ content: 'Order 654321 is cancelled.' });
      const approved = await decide(approval.ApprovalId, 'approve', { Arguments: { order: '654321' } });
      assert.equal(approved.status, 200);
      assert.deepEqual(
        { Status: approved.body.Status, DecidedBy: approved.body.DecidedBy, Arguments: approved.body.Arguments },
        { Status: 'approved', DecidedBy: 'api', Arguments: { order: '654321' } },
      );
      assert.deepEqual(
        shop.calls.map((c) => `${c.method} ${c.path}`),
        ['POST /orders/654321/cancel'],
      );
      assert.equal(ai.requests.length, 2, 'the model is asked again once the call is made');
      const messages = ai.requests[1].body.messages;
      const toolMessage = messages.find((m) => m.role === 'tool');
      assert.equal(toolMessage?.tool_call_id, `call_${user}`);
      assert.match(toolMessage!.content, /"status":200/);
      assert.ok(
        messages.some((m) => m.role === 'user' && m.content === 'still there?'),
        'the text written while waiting is in the history',
      );
      await botMessage(user, 'Order 654321 is cancelled.');

      const again = await decide(approval.ApprovalId, 'reject');
      assert.equal(again.status, 409);
      assert.equal(again.body.Code, 'APPROVAL_DECIDED');
      assert.equal(shop.calls.length, 1);
      // the agent holds the conversation again: the next text reaches the model
      ai.next({ content: 'Anything else?' });
      assert.deepEqual(summary((await chatOk(server, tenant.botToken, { UserId: user, Text: 'thanks' })).Parts), [[0, 'Anything else?']]);
    });

    test('reject: nothing is called, the model reads the refusal and the reason', async () => {
      const { user, approval } = await waiting();
      ai.next({ content: 'Sorry, I cannot cancel that order.' });
      const rejected = await decide(approval.ApprovalId, 'reject', { Reason: 'Already shipped' });
      assert.equal(rejected.status, 200);
      assert.deepEqual({ Status: rejected.body.Status, Reason: rejected.body.Reason, DecidedBy: rejected.body.DecidedBy }, { Status: 'rejected', Reason: 'Already shipped', DecidedBy: 'api' });
      assert.equal(shop.calls.length, 0);
      const toolMessage = ai.requests[1].body.messages.find((m) => m.role === 'tool');
      assert.deepEqual(JSON.parse(toolMessage!.content), { error: 'a colleague refused this call', reason: 'Already shipped' });
      await botMessage(user, 'Sorry, I cannot cancel that order.');
      assert.equal((await decide(approval.ApprovalId, 'approve')).status, 409);
    });

    test('two concurrent approvals decide once: one 200, one 409, one call', async () => {
      const { approval } = await waiting();
      ai.next({ content: 'Done.' });
      const answers = await Promise.all([decide(approval.ApprovalId, 'approve'), decide(approval.ApprovalId, 'approve')]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
      assert.equal(answers.find((a) => a.status === 409)!.body.Code, 'APPROVAL_DECIDED');
      assert.equal(shop.calls.length, 1);
      assert.equal(ai.requests.length, 2);
    });

    test('unknown ids are 404; bad bodies 400; pending first in the list', async () => {
      for (const id of ['999999', 'abc', '0']) {
        const res = await decide(id, 'approve');
        assert.equal(res.status, 404, id);
        assert.equal(res.body.Code, 'APPROVAL_NOT_FOUND');
      }
      const { approval } = await waiting();
      for (const [verb, body] of [
        ['approve', { Arguments: 'x' }],
        ['reject', { Reason: 'x'.repeat(1001) }],
      ] as const) {
        const res = await decide(approval.ApprovalId, verb, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 40));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await server.client.get(api('?limit=0'), { token: tenant.accountToken })).status, 400);
      const all = await list();
      const firstDecided = all.findIndex((a) => a.Status !== 'pending');
      assert.ok(firstDecided > 0 && all.slice(firstDecided).every((a) => a.Status !== 'pending'), 'pending first');
      assert.equal((await server.client.get(api('?limit=1'), { token: tenant.accountToken })).body.Result.length, 1);
    });

    test("userid lists one conversation's approvals, even when the bot's list is cut before them; a bad one is 400", async () => {
      const first = await waiting();
      const second = await waiting();
      const byUser = async (user: string, limit = 200) => {
        const res = await server.client.get(api(`?limit=${limit}&userid=${encodeURIComponent(user)}`), { token: tenant.accountToken });
        assert.equal(res.status, 200, res.text);
        return res.body.Result as any[];
      };
      assert.deepEqual(
        (await byUser(second.user)).map((a) => [a.ApprovalId, a.UserId, a.Status]),
        [[second.approval.ApprovalId, second.user, 'pending']],
      );
      // the bot's list cut at one holds the longest waiting (not the second); the second's own list still has it
      assert.notEqual((await server.client.get(api('?limit=1'), { token: tenant.accountToken })).body.Result[0].ApprovalId, second.approval.ApprovalId);
      assert.equal((await byUser(second.user, 1))[0].ApprovalId, second.approval.ApprovalId);
      assert.equal((await byUser(first.user))[0].ApprovalId, first.approval.ApprovalId);
      assert.deepEqual(await byUser('nobody-here'), []);
      for (const bad of ['', 'x'.repeat(257)]) {
        const res = await server.client.get(api(`?userid=${bad}`), { token: tenant.accountToken });
        assert.equal(res.status, 400, bad.slice(0, 10));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      await addOperator(server.client, tenant.accountId, `lister-${kind}@example.org`, undefined, 'Lister', 'agent');
      const operator = consoleClient(server.client, await signIn(server.client, `lister-${kind}@example.org`));
      const consoleList = await operator.get(`/bots/${botId}/approvals?userid=${encodeURIComponent(first.user)}`);
      assert.equal(consoleList.status, 200, consoleList.text);
      assert.deepEqual(
        consoleList.body.Result.map((a: { UserId: string }) => a.UserId),
        [first.user],
      );
    });

    test('console: an agent sees the pending count in the list, lists and approves (decided by the operator); a designer gets 403 ROLE_FORBIDDEN', async () => {
      await addOperator(server.client, tenant.accountId, `agent-${kind}@example.org`, undefined, 'Agent', 'agent');
      await addOperator(server.client, tenant.accountId, `designer-${kind}@example.org`, undefined, 'Designer', 'designer');
      const agent = consoleClient(server.client, await signIn(server.client, `agent-${kind}@example.org`));
      const designer = consoleClient(server.client, await signIn(server.client, `designer-${kind}@example.org`));
      const { user, approval } = await waiting();
      for (const res of [await designer.get(`/bots/${botId}/approvals`), await designer.post(`/bots/${botId}/approvals/${approval.ApprovalId}/approve`, {})]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.Code, 'ROLE_FORBIDDEN');
      }
      // the console's list says how many calls wait in each conversation (its "Waiting for approval" badge)
      const pendingIn = async () => ((await agent.get('/conversations')).body.Conversations as any[]).find((c) => c.UserId === user).PendingApprovals;
      assert.equal(await pendingIn(), 1);
      const listed = await agent.get(`/bots/${botId}/approvals`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.Result.find((a: any) => a.ApprovalId === approval.ApprovalId).Status, 'pending');
      ai.next({ content: 'Cancelled by a colleague.' });
      const approved = await agent.post(`/bots/${botId}/approvals/${approval.ApprovalId}/approve`, {});
      assert.equal(approved.status, 200);
      assert.equal(approved.body.DecidedBy, `agent-${kind}@example.org`);
      await botMessage(user, 'Cancelled by a colleague.');
      assert.deepEqual(
        shop.calls.map((c) => c.path),
        ['/orders/123456/cancel'],
      );
      assert.equal(await pendingIn(), 0);
    });

    test('the personal-data export holds the approvals; forget removes them', async () => {
      const { user, approval } = await waiting();
      const exported = await server.client.get(`/bots/${tenant.botKey}/conversations/${user}/export`, { token: tenant.accountToken });
      assert.equal(exported.status, 200);
      const doc = JSON.parse(exported.text);
      assert.deepEqual(
        doc.Approvals.map((a: any) => [a.Tool, a.Arguments, a.Status]),
        [['cancel_order', { order: '123456' }, 'pending']],
      );
      assert.match(doc.Approvals[0].At, /^\d{4}-\d\d-\d\dT/);
      assert.equal((await server.client.post('/custom/state', { userid: user, state: 'forget' }, { token: tenant.botToken })).status, 202);
      assert.equal(
        (await list()).some((a) => a.ApprovalId === approval.ApprovalId),
        false,
      );
      assert.equal((await decide(approval.ApprovalId, 'approve')).status, 404);
    });
  });
}
