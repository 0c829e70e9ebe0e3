// `colloquy test` with a scripted agent model (testing.md "Scripting an agent's model"), as a user
// runs it: the script drives the agent's real tool execution (http answered by callApi stubs,
// variable, flow, argument checks, a failing model); a script that runs out, calls a tool the agent
// lacks or is missing fails the test with a plain message; a broken script is exit 2 with its
// paths. On each database, the same passing file runs against the live bot (`--server`), whose
// model is the OpenAI-compatible double answering the same script and whose http tool reaches a
// shop double on loopback: the scripted run and the server agree.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AiDouble } from '../support/ai-double.js';
import { cleanEnv, colloquy, folderWith, withoutTimes } from '../support/bot-test-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { AGENT_BROKEN_TESTS, AGENT_FAILING_TESTS, AGENT_LOCAL_TESTS, agentBot, agentTests } from '../fixtures/agent-test-files.js';

const SHOP = 'https://shop.example';
const dirs: string[] = [];
const folder = (files: Record<string, string>) => {
  const dir = folderWith(files);
  dirs.push(dir);
  return dir;
};
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('colloquy test with a scripted agent model', () => {
  let dir: string;
  before(() => {
    dir = folder({
      'agent.bot.yaml': agentBot(SHOP),
      'pass.test.yaml': agentTests(SHOP),
      'local.test.yaml': AGENT_LOCAL_TESTS,
      'failing/fail.test.yaml': AGENT_FAILING_TESTS.replace('bot: agent.bot.yaml', 'bot: ../agent.bot.yaml'),
      'broken/broken.test.yaml': AGENT_BROKEN_TESTS.replace('bot: agent.bot.yaml', 'bot: ../agent.bot.yaml'),
    });
  });

  test('the script answers the model calls in order; the tools run for real: http through the callApi stubs, variable, flow, argument checks, a timeout', async () => {
    const run = await colloquy(['test', 'pass.test.yaml', 'local.test.yaml'], { cwd: dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(withoutTimes(run.stdout), [
      'pass.test.yaml (Agent Bot)',
      '  ✓ the agent looks an order up with its http tool',
      'local.test.yaml (Agent Bot)',
      '  ✓ the variable and flow tools leave the agent for the booking',
      '  ✓ arguments that do not fit the tool go back to the model, no call is made',
      '  ✓ a model that times out runs onError',
      '4 tests, 4 passed, 0 failed (N steps)',
    ]);
    // the http tool's request is the one the stub names: another order number has no stub
    const other = folder({ 'agent.bot.yaml': agentBot(SHOP), 'other.test.yaml': agentTests(SHOP).replace('orders/123456"', 'orders/654321"') });
    const missing = await colloquy(['test'], { cwd: other });
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /\n {6}expected: a stub for callApi GET https:\/\/shop\.example\/orders\/123456\n/);
  });

  test('a script that runs out, a call of a tool the agent lacks, no script: the test fails and says so plainly; exit code 1', async () => {
    const run = await colloquy(['test', 'failing'], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const file = path.join('failing', 'fail.test.yaml');
    assert.deepEqual(withoutTimes(run.stdout), [
      `${file} (Agent Bot)`,
      '  ✗ the script runs out',
      `      at ${file}:9  user: "Where is order 123456?"`,
      '      expected: answer 2 of the model script (the agent asked its model)',
      '      got:      the script ran out after 1 answer: add one under `stubs.model`',
      '  ✗ a tool the agent does not have',
      `      at ${file}:16  user: "Refund order 123456"`,
      "      expected: answer 1 of the model script to call one of the agent's tools (order_status, remember_email, book_repair)",
      '      got:      it calls "refund", which the agent does not have',
      '  ✗ no script at all',
      `      at ${file}:19  user: "Hello?"`,
      '      expected: answer 1 of the model script (the agent asked its model)',
      '      got:      the test has no `stubs.model`: add the answers there, no model is ever called',
      '3 tests, 0 passed, 3 failed (N steps)',
    ]);
  });

  test('a broken script makes the file unusable: exit code 2, each problem with its path and line', async () => {
    const run = await colloquy(['test', 'broken'], { cwd: dir });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.deepEqual(withoutTimes(run.stdout).slice(0, 5), [
      `${path.join('broken', 'broken.test.yaml')}: cannot be used`,
      '  $.tests[0].stubs.model[1] (line 7): must NOT have more than 1 properties',
      '  $.tests[0].stubs.model[2].call.tool (line 8): must match pattern "^[a-zA-Z0-9_-]{1,64}$"',
      "  $.tests[0].stubs.model[3].call (line 9): must have required property 'tool'",
      '  $.tests[0].stubs.model[4].shout (line 10): is not a known member here',
    ]);
    const tooMany = folder({
      'agent.bot.yaml': agentBot(SHOP),
      'many.test.yaml': `bot: agent.bot.yaml\ntests:\n  - name: x\n    stubs:\n      model:\n${'        - say: hi\n'.repeat(1001)}    steps: [{ user: hi }]\n`,
    });
    const many = await colloquy(['test'], { cwd: tooMany });
    assert.equal(many.code, 2);
    assert.match(many.stdout, /\n {2}\$\.tests\[0\]\.stubs\.model \(line 6\): must NOT have more than 1000 items\n/);
  });
});

/** The shop's API on loopback: /orders/<n> answers its state; every request is recorded. */
async function startShop() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ order: req.url?.split('/').pop(), state: 'shipped' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

for (const kind of databaseKinds()) {
  describe(`a scripted agent test and the live agent agree (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let shop: Awaited<ReturnType<typeof startShop>>;
    before(async () => {
      [server, ai, shop] = await Promise.all([startTestServer(kind), AiDouble.start(), startShop()]);
    });
    after(async () => {
      await Promise.all([server.close(), ai.close(), shop.close()]);
    });

    test('the same file passes with the scripted model and against the live bot (model double, shop on loopback); model stubs are skipped with a note', async () => {
      const accountKey = (await createAccount(server.client)).AccountAPIKey;
      const env = cleanEnv({ COLLOQUY_ACCOUNT_KEY: accountKey, COLLOQUY_SERVER: server.url });
      const live = folder({ 'agent.bot.yaml': agentBot(shop.url, `Live Agent ${kind}`), 'pass.test.yaml': agentTests(shop.url) });
      const local = await colloquy(['test', 'pass.test.yaml'], { cwd: live });
      assert.equal(local.code, 0, local.stdout + local.stderr);
      assert.deepEqual(shop.requests, [], 'the scripted run calls nothing');
      const push = await colloquy(['push', 'agent.bot.yaml'], { cwd: live, env });
      assert.equal(push.code, 0, push.stdout + push.stderr);
      const botKey = /BotAPIKey\s+(\S+)/.exec(push.stdout)![1]!;
      const put = await server.client.put(`/bots/${botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: await accountToken(server.client, accountKey) });
      assert.equal(put.status, 200);
      ai.next({ toolCalls: [{ name: 'order_status', arguments: { order: '123456' } }] }, { content: 'Your order 123456 has shipped.' });
      const run = await colloquy(['test', 'pass.test.yaml', '--server', server.url, '--bot', botKey], { cwd: live, env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /note: callApi stubs skipped: the live bot makes its real calls\n {2}note: model stubs skipped: the live bot makes its real calls\n/);
      assert.match(run.stdout, /✓ the agent looks an order up with its http tool/);
      assert.deepEqual(shop.requests, ['GET /orders/123456']);
      assert.equal(ai.requests.length, 2);
      assert.deepEqual(
        ai.requests[0]!.body.tools?.map((t) => t.function.name),
        ['order_status', 'remember_email', 'book_repair'],
      );
    });
  });
}
