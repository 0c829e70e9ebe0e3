// The designer's preview runs agents on the draft (designer.md "Try it", agents.md): an agent added
// to the draft only answers in the preview with the bot's own AI provider and calls the tools of the
// bot's MCP servers, both kept under the real bot's id, not the preview twin's. The live version,
// which has no agent, is untouched. With the AI double and a real MCP server on loopback; both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AiDouble } from '../support/ai-double.js';
import { botFile, chatOk, summary, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { McpTestServer } from '../support/mcp-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

const toAgent = { match: 'assistant', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Agent' }] };
const withAgent = (agentActions: unknown[]) =>
  botFile(
    [
      { name: 'Start', actions: [text('Hi')] },
      { name: 'Agent', actions: agentActions },
    ],
    { triggers: [toAgent] },
  );
const agent = { type: 'agent', instructions: 'Find customers.', tools: [{ type: 'mcp', server: 'crm', allow: ['find_customer'] }], onError: [text('Agent failed ({{agent_status}}).')] };

for (const kind of databaseKinds()) {
  describe(`the preview runs agents on the draft (${kind})`, () => {
    let ai: AiDouble;
    let mcp: McpTestServer;
    let server: TestServer;
    let tenant: Tenant;

    before(async () => {
      ai = await AiDouble.start();
      mcp = await McpTestServer.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, withAgent([text('No agent live yet.')]));
      const token = { token: tenant.accountToken };
      assert.equal((await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'bot-model', ApiKey: 'sk-bot' }, token)).status, 200);
      assert.equal((await server.client.put(`/bots/${tenant.botKey}/mcp/crm`, { Url: mcp.mcpUrl }, token)).status, 200);
      assert.equal((await server.client.put(`/bots/${tenant.botKey}`, withAgent([agent]), token)).status, 200);
    });
    after(async () => {
      await server.close();
      await mcp.close();
      await ai.close();
    });

    test("the draft's agent answers in the preview with the bot's AI provider and its MCP server's tool", async () => {
      const preview = (body: unknown) => server.client.post(`/bots/${tenant.botKey}/preview/chat`, body, { token: tenant.accountToken });
      assert.equal((await preview({ UserId: 'p-agent' })).status, 200);
      ai.next({ toolCalls: [{ name: 'crm__find_customer', arguments: { email: 'ann@example.com' } }], tokens: 10 }, { content: 'You are Ann Lee, a gold customer.', tokens: 8 });
      const reply = await preview({ UserId: 'p-agent', Text: 'assistant' });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(summary(reply.body.Parts), [[0, 'You are Ann Lee, a gold customer.']]);
      assert.deepEqual(reply.body.Parts[0].Source, { Behaviour: 'Main', Interaction: 'Agent' });

      assert.equal(ai.requests.length, 2);
      assert.equal(ai.requests[0]!.authorization, 'Bearer sk-bot');
      assert.equal(ai.requests[0]!.body.model, 'bot-model');
      const offered = (ai.requests[0]!.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((t) => t.function.name);
      assert.deepEqual(offered, ['crm__find_customer']);
      assert.deepEqual(mcp.seen.filter((s) => s.method === 'tools/call').at(-1)?.params, { name: 'find_customer', arguments: { email: 'ann@example.com' } });

      // the live version has no agent: a real conversation is not held by one
      ai.reset();
      await chatOk(server, tenant.botToken, { UserId: 'real-user' });
      const live = await chatOk(server, tenant.botToken, { UserId: 'real-user', Text: 'assistant' });
      assert.deepEqual(summary(live.Parts), [[0, 'No agent live yet.']]);
      assert.equal(ai.requests.length, 0);
    });
  });
}
