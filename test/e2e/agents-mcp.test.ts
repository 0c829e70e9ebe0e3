// A bot's MCP servers (agents.md "MCP servers") end to end: the routes (auth is route-auth's), with a
// real MCP server built with the SDK on loopback; then the McpToolSource the agent turn is handed,
// from the wiring: the tool cache (once a minute, or on list_changed), calls bounded in time and
// bytes, isError, a server that goes down. On both databases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botIdOf } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { McpTestServer } from '../support/mcp-server.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { clockFrom } from '../../src/shared/clock.js';
import type { McpTools } from '../../src/mcp/tool-source.js';

const TOOLS = [
  { Name: 'find_customer', Description: 'Find a customer by e-mail' },
  { Name: 'hang', Description: 'Never answers' },
  { Name: 'huge', Description: 'Answers megabytes' },
  { Name: 'fail', Description: 'Always fails' },
  { Name: 'long_text', Description: 'Answers 40 KB' },
];
const HEADER_SECRET = 'Bearer mcp-header-secret-4711';

for (const kind of databaseKinds()) {
  describe(`MCP servers (${kind})`, () => {
    let mcp: McpTestServer;
    let server: TestServer;
    let tenant: Tenant;
    let botId: string;
    let tools: McpTools;
    let now = Date.now();
    const put = (name: string, body: unknown) => server.client.put(`/bots/${tenant.botKey}/mcp/${name}`, body, { token: tenant.accountToken });
    const list = () => server.client.get(`/bots/${tenant.botKey}/mcp`, { token: tenant.accountToken });

    before(async () => {
      mcp = await McpTestServer.start();
      server = await startTestServer(kind, {}, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client);
      botId = await botIdOf(server, tenant.botKey);
      tools = server.running.services.mcp.tools;
    });
    after(async () => {
      await server.close();
      await mcp.close();
    });

    test('PUT connects, lists the tools with protocol 2025-06-18 and the session kept, and stores the headers sealed', async () => {
      const res = await put('crm', { Url: mcp.mcpUrl, Headers: { Authorization: HEADER_SECRET } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { Name: 'crm', Url: mcp.mcpUrl, Tools: TOOLS });
      const initialize = mcp.seen.find((s) => s.method === 'initialize')!;
      assert.equal((initialize.params as { protocolVersion: string }).protocolVersion, '2025-06-18');
      const listed = mcp.seen.find((s) => s.method === 'tools/list')!;
      assert.equal(listed.headers.authorization, HEADER_SECRET);
      assert.match(String(listed.headers['mcp-session-id']), /^[0-9a-f-]{36}$/);
      assert.equal(listed.headers['mcp-protocol-version'], '2025-06-18');

      const got = await list();
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, { Result: [{ Name: 'crm', Url: mcp.mcpUrl, Tools: TOOLS, LastError: null }] });
      assert.equal(got.text.includes('mcp-header-secret'), false);
      const file = await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
      assert.equal(file.status, 200);
      assert.equal(file.text.includes('mcp-header-secret'), false);
      const row = await server.running.store.mcpServers.get(botId, 'crm');
      assert.deepEqual(row?.headers, { Authorization: HEADER_SECRET });
    });

    test('the routes are in the API document (/docs)', async () => {
      const paths = (await server.client.get('/openapi.json')).body.paths;
      assert.deepEqual(Object.keys(paths['/bots/{APIKey}/mcp/{Name}']).sort(), ['delete', 'put']);
      assert.deepEqual(Object.keys(paths['/bots/{APIKey}/mcp']), ['get']);
      assert.deepEqual(Object.keys(paths['/bots/{APIKey}/secrets/{NAME}']).sort(), ['delete', 'put']);
      assert.deepEqual(Object.keys(paths['/bots/{APIKey}/secrets']), ['get']);
    });

    test('a URL that does not answer MCP: 400 MCP_UNREACHABLE, nothing stored', async () => {
      for (const path of ['/html', '/endless', '/nothing-here']) {
        const res = await put('other', { Url: `${mcp.url}${path}` });
        assert.equal(res.status, 400, `${path}: ${res.text}`);
        assert.equal(res.body.Code, 'MCP_UNREACHABLE');
      }
      mcp.hangInitialized = true;
      const hung = await put('other', { Url: mcp.mcpUrl });
      mcp.hangInitialized = false;
      assert.equal(hung.status, 400);
      assert.equal(hung.body.Message, `${mcp.mcpUrl} does not answer as an MCP server: the server did not finish connecting within 5000 ms`);
      const closed = await put('other', { Url: 'http://127.0.0.1:1/mcp' });
      assert.equal(closed.body.Code, 'MCP_UNREACHABLE');
      assert.deepEqual(
        (await list()).body.Result.map((s: { Name: string }) => s.Name),
        ['crm'],
      );
    });

    test('bounds: name, URL, headers, servers per bot', async () => {
      const refused = async (name: string, body: unknown, code: string) => {
        const res = await put(name, body);
        assert.equal(res.status, 400, `${name} ${JSON.stringify(body).slice(0, 80)}: ${res.text}`);
        assert.equal(res.body.Code, code);
      };
      await refused('a__b', { Url: mcp.mcpUrl }, 'INVALID_REQUEST');
      await refused('x'.repeat(33), { Url: mcp.mcpUrl }, 'INVALID_REQUEST');
      await refused('ok', { Url: 'ftp://127.0.0.1/mcp' }, 'INVALID_REQUEST');
      await refused('ok', { Url: 'not a url' }, 'INVALID_REQUEST');
      await refused('ok', { Url: `${mcp.mcpUrl}?${'q'.repeat(2100)}` }, 'INVALID_REQUEST');
      await refused('ok', { Url: mcp.mcpUrl, Headers: { Host: 'evil.example' } }, 'INVALID_REQUEST');
      await refused('ok', { Url: mcp.mcpUrl, Headers: { 'Mcp-Session-Id': 'x' } }, 'INVALID_REQUEST');
      await refused('ok', { Url: mcp.mcpUrl, Headers: { 'Bad Name': 'x' } }, 'INVALID_REQUEST');
      await refused('ok', { Url: mcp.mcpUrl, Headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, 'INVALID_REQUEST');
      const other = await createTenant(server.client);
      for (let i = 0; i < 10; i++) assert.equal((await server.client.put(`/bots/${other.botKey}/mcp/s${i}`, { Url: mcp.mcpUrl }, { token: other.accountToken })).status, 200);
      const eleventh = await server.client.put(`/bots/${other.botKey}/mcp/s10`, { Url: mcp.mcpUrl }, { token: other.accountToken });
      assert.equal(eleventh.status, 400);
      assert.equal(eleventh.body.Code, 'MCP_SERVER_LIMIT');
      // changing one of the ten is not an eleventh
      assert.equal((await server.client.put(`/bots/${other.botKey}/mcp/s9`, { Url: mcp.mcpUrl }, { token: other.accountToken })).status, 200);
      assert.equal((await server.client.delete(`/bots/${other.botKey}`, { token: other.accountToken })).status, 200);
    });

    test('a PUT that changes the Url without Headers drops the stored ones', async () => {
      const res = await put('crm', { Url: `${mcp.mcpUrl}?v=2` });
      assert.equal(res.status, 200, res.text);
      const last = mcp.seen.at(-1)!;
      assert.equal(last.method, 'tools/list');
      assert.equal(last.headers.authorization, undefined);
      assert.equal((await server.running.store.mcpServers.get(botId, 'crm'))?.headers, null);
      // the same Url again without Headers keeps what is stored (none now); with Headers, they are used
      assert.equal((await put('crm', { Url: mcp.mcpUrl, Headers: { Authorization: HEADER_SECRET } })).status, 200);
      assert.equal(mcp.seen.at(-1)!.headers.authorization, HEADER_SECRET);
      assert.equal((await put('crm', { Url: mcp.mcpUrl })).status, 200);
      assert.equal(mcp.seen.at(-1)!.headers.authorization, HEADER_SECRET);
    });

    test('the tool list is cached: listed again after a minute, or at once after list_changed', async () => {
      assert.equal((await put('crm', { Url: mcp.mcpUrl })).status, 200);
      const lists = mcp.count('tools/list');
      const first = await tools.toolsFor(botId, ['crm', 'nope']);
      assert.deepEqual(
        first.tools.map((t) => `${t.server}:${t.tool.name}`),
        TOOLS.map((t) => `crm:${t.Name}`),
      );
      assert.deepEqual(first.tools[0].tool.parameters.required, ['email']);
      assert.deepEqual(first.unavailable, [{ server: 'nope', error: 'the bot has no MCP server named "nope"' }]);
      now += 59_000;
      await tools.toolsFor(botId, ['crm']);
      assert.equal(mcp.count('tools/list'), lists, 'within the minute: from the cache');
      now += 2_000;
      await tools.toolsFor(botId, ['crm']);
      assert.equal(mcp.count('tools/list'), lists + 1, 'after a minute: listed again');

      // the clock stands still from here: only the notification can make the list stale
      mcp.addTool('open_ticket');
      let names: string[] = [];
      const deadline = Date.now() + 10_000;
      while (!names.includes('open_ticket') && Date.now() < deadline) {
        names = (await tools.toolsFor(botId, ['crm'])).tools.map((t) => t.tool.name);
        if (!names.includes('open_ticket')) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(names.includes('open_ticket'), `listed after the notification, within the minute: ${names}`);
      assert.equal(mcp.count('tools/list'), lists + 2);
      await tools.toolsFor(botId, ['crm']);
      assert.equal(mcp.count('tools/list'), lists + 2, 'then cached again');
    });

    test('calls: the text, isError, a hanging tool cut at timeoutMs, a huge answer cut, a long text cut to 16 KB', async () => {
      const found = await tools.call(botId, 'crm', 'find_customer', { email: 'ann@example.com' }, 5000);
      assert.deepEqual(found, { ok: true, text: 'customer ann@example.com: Ann Lee, gold' });
      assert.deepEqual(mcp.seen.filter((s) => s.method === 'tools/call').at(-1)!.params, { name: 'find_customer', arguments: { email: 'ann@example.com' } });
      assert.deepEqual(await tools.call(botId, 'crm', 'fail', {}, 5000), { ok: false, text: 'the CRM is down' });

      const hung = await tools.call(botId, 'crm', 'hang', {}, 300);
      assert.equal(hung.ok, false);
      assert.equal(hung.text, 'MCP error -32001: Request timed out');
      // the connection the hanging call held was closed; the next call opens another and works
      assert.equal((await tools.call(botId, 'crm', 'find_customer', { email: 'b@example.com' }, 5000)).ok, true);

      const huge = await tools.call(botId, 'crm', 'huge', {}, 10_000);
      assert.equal(huge.ok, false);
      assert.ok(huge.text.length < 400, huge.text.slice(0, 100));
      assert.equal(huge.text, "the server's answer was over 1048576 bytes");
      const long = await tools.call(botId, 'crm', 'long_text', {}, 5000);
      assert.equal(long.ok, true);
      assert.equal(Buffer.byteLength(long.text), 16 * 1024);
      assert.deepEqual(await tools.call(botId, 'nope', 'x', {}, 1000), { ok: false, text: 'the bot has no MCP server named "nope"' });
    });

    test('a server that forgot our session (404 to its id): the call starts a new session and is made once, the tool list too', async () => {
      assert.equal((await tools.call(botId, 'crm', 'find_customer', { email: 'c@example.com' }, 30_000)).ok, true);
      const calls = mcp.count('tools/call');
      const initializes = mcp.count('initialize');
      mcp.forgetSessions();
      assert.deepEqual(await tools.call(botId, 'crm', 'find_customer', { email: 'd@example.com' }, 30_000), { ok: true, text: 'customer d@example.com: Ann Lee, gold' });
      // two requests: the first, answered 404 (the session is unknown), ran nothing; the second, over a new session
      assert.equal(mcp.count('tools/call'), calls + 2);
      assert.equal(mcp.count('initialize'), initializes + 1);
      const known = (await tools.toolsFor(botId, ['crm'])).tools.map((t) => t.tool.name);
      const lists = mcp.count('tools/list');
      mcp.forgetSessions();
      now += 61_000; // the cached list is due again
      const turn = await tools.toolsFor(botId, ['crm']);
      assert.deepEqual(turn.unavailable, []);
      assert.deepEqual(
        turn.tools.map((t) => t.tool.name),
        known,
      );
      assert.equal(mcp.count('tools/list'), lists + 2);
    });

    test('a server down at turn time is left out and its LastError set; DELETE removes a server; deleting the bot removes all', async () => {
      const down = await McpTestServer.start();
      assert.equal((await put('down', { Url: down.mcpUrl })).status, 200);
      await down.close();
      now += 61_000;
      const turn = await tools.toolsFor(botId, ['crm', 'down']);
      assert.deepEqual([...new Set(turn.tools.map((t) => t.server))], ['crm']);
      assert.equal(turn.unavailable.length, 1);
      assert.equal(turn.unavailable[0].server, 'down');
      const listed = (await list()).body.Result;
      assert.equal(listed.find((s: { Name: string }) => s.Name === 'down').LastError, turn.unavailable[0].error);
      assert.equal(listed.find((s: { Name: string }) => s.Name === 'crm').LastError, null);

      assert.equal((await server.client.delete(`/bots/${tenant.botKey}/mcp/down`, { token: tenant.accountToken })).status, 204);
      assert.equal((await server.client.delete(`/bots/${tenant.botKey}/mcp/down`, { token: tenant.accountToken })).status, 204);
      assert.deepEqual(
        (await list()).body.Result.map((s: { Name: string }) => s.Name),
        ['crm'],
      );
      assert.equal((await tools.toolsFor(botId, ['down'])).unavailable[0].error, 'the bot has no MCP server named "down"');

      assert.equal((await server.client.delete(`/bots/${tenant.botKey}`, { token: tenant.accountToken })).status, 200);
      assert.deepEqual(await server.running.store.mcpServers.byBot(botId), []);
    });
  });

  describe(`MCP servers behind the private-network guard (${kind})`, () => {
    test('a loopback Url is refused when private networks are not allowed', async () => {
      const guarded = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '0' });
      try {
        const tenant = await createTenant(guarded.client);
        for (const url of ['http://127.0.0.1:9/mcp', 'http://localhost:9/mcp', 'http://[::1]:9/mcp', 'http://10.0.0.1/mcp']) {
          const res = await guarded.client.put(`/bots/${tenant.botKey}/mcp/crm`, { Url: url }, { token: tenant.accountToken });
          assert.equal(res.status, 400, url);
          assert.equal(res.body.Code, 'MCP_UNREACHABLE');
          assert.match(res.body.Message, /private network/);
        }
      } finally {
        await guarded.close();
      }
    });
  });
}
