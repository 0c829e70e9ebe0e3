// agents.md "Checked at save and publish": an agent's `mcp` tool naming a server the bot does not
// have is refused at publish (400 INVALID_BOT at the tool's JSON path, nothing published), though
// the draft saves; once the server is configured the same draft publishes. On both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { McpTestServer } from '../support/mcp-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

const agentWith = (tools: unknown[]) =>
  botFile([
    { name: 'Welcome', actions: [{ type: 'text', text: 'Hello' }] },
    {
      name: 'Agent',
      actions: [
        { type: 'text', text: 'Asking the agent' },
        { type: 'agent', instructions: 'Help.', tools },
      ],
    },
  ]);
const TOOL_PATH = '$.behaviours[0].interactions[1].actions[1].tools';

for (const kind of databaseKinds()) {
  describe(`agent checks at publish (${kind})`, () => {
    let mcp: McpTestServer;
    let server: TestServer;
    let tenant: Tenant;
    const versions = async () => (await server.client.get(`/bots/${tenant.botKey}/versions`, { token: tenant.accountToken })).body.Result.map((v: { Version: number }) => v.Version);
    const publish = () => server.client.post(`/bots/${tenant.botKey}/publish`, {}, { token: tenant.accountToken });

    before(async () => {
      mcp = await McpTestServer.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(async () => {
      await server.close();
      await mcp.close();
    });

    test('an mcp tool naming a server the bot does not have: the draft saves, the publish is 400 at its path, nothing published', async () => {
      const tools = [{ type: 'knowledge' }, { type: 'mcp', server: 'crm', allow: ['find_customer'] }, { type: 'mcp', server: 'billing' }];
      const saved = await server.client.put(`/bots/${tenant.botKey}`, agentWith(tools), { token: tenant.accountToken });
      assert.equal(saved.status, 200, saved.text);
      const before = await versions();

      const refused = await publish();
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.Code, 'INVALID_BOT');
      assert.deepEqual(
        refused.body.Problems.map((p: { Path: string }) => p.Path),
        [`${TOOL_PATH}[1].server`, `${TOOL_PATH}[2].server`],
      );
      assert.match(refused.body.Problems[0].Message, /no MCP server named 'crm'/);
      assert.deepEqual(await versions(), before);

      // one of the two configured: only the other is still named
      const put = await server.client.put(`/bots/${tenant.botKey}/mcp/crm`, { Url: mcp.mcpUrl }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
      const still = await publish();
      assert.equal(still.status, 400, still.text);
      assert.deepEqual(
        still.body.Problems.map((p: { Path: string }) => p.Path),
        [`${TOOL_PATH}[2].server`],
      );
      assert.deepEqual(await versions(), before);
    });

    test('every server configured: the draft publishes', async () => {
      const saved = await server.client.put(`/bots/${tenant.botKey}`, agentWith([{ type: 'mcp', server: 'crm', approval: true }]), { token: tenant.accountToken });
      assert.equal(saved.status, 200, saved.text);
      const published = await publish();
      assert.equal(published.status, 200, published.text);
      const live = await server.client.get(`/bots/${tenant.botKey}/versions/${(await versions()).at(0)}`, { token: tenant.accountToken });
      assert.equal(live.status, 200);
      assert.deepEqual(live.body.behaviours[0].interactions[1].actions[1].tools, [{ type: 'mcp', server: 'crm', approval: true }]);
    });
  });
}
