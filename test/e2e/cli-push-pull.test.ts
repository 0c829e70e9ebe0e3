// `colloquy push`, `pull` and `test --server` against a real server on a real port, as a CI job
// runs them: create, pull, push with If-Match, refused on a stale version (exit 3, nothing
// overwritten), --force, an invalid file refused with its problems, and the same test files run
// against the live bot through the custom channel.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { cleanEnv, colloquy, folderWith } from '../support/bot-test-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, botToken, createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { PASSING_TESTS, STEPS_BOT } from '../fixtures/bot-test-files.js';

const SUPPORT_EXAMPLE = new URL('../../examples/support/', import.meta.url).pathname;

for (const kind of databaseKinds()) {
  describe(`colloquy push / pull / test --server (${kind})`, () => {
    let server: TestServer;
    let env: NodeJS.ProcessEnv;
    let accountKey: string;
    let dir: string;
    let botKey: string;
    const cli = (args: string[]) => colloquy(args, { cwd: dir, env });

    before(async () => {
      server = await startTestServer(kind);
      accountKey = (await createAccount(server.client)).AccountAPIKey;
      env = cleanEnv({ COLLOQUY_ACCOUNT_KEY: accountKey, COLLOQUY_SERVER: server.url });
      dir = folderWith({ 'steps.bot.yaml': `# my bot\n${STEPS_BOT}` });
    });
    after(async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const draft = async () => (await server.client.get(`/bots/${botKey}`, { token: await accountToken(server.client, accountKey) })).body;

    test('push without --bot creates the bot (live at once) and writes its version into the file, comments kept', async () => {
      const run = await cli(['push', 'steps.bot.yaml']);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      botKey = /BotAPIKey\s+(\S+)/.exec(run.stdout)![1]!;
      assert.match(run.stdout, /created "Steps Bot" \(version 1, live\)/);
      const text = fs.readFileSync(path.join(dir, 'steps.bot.yaml'), 'utf8');
      assert.ok(text.startsWith('# my bot\n'), text.slice(0, 40));
      assert.equal(parseYaml(text).version, 1);
      assert.equal((await draft()).version, 1);
    });

    test('pull writes the draft as YAML with its version; --version N --format json a published one', async () => {
      const run = await cli(['pull', botKey, '--out', 'pulled.bot.yaml']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /the draft of "Steps Bot" written to pulled\.bot\.yaml \(version 1\)/);
      const pulled = parseYaml(fs.readFileSync(path.join(dir, 'pulled.bot.yaml'), 'utf8'));
      assert.equal(pulled.version, 1);
      assert.equal(pulled.behaviours[0].interactions[0].actions[0].text, 'Hello from {{city}}!');
      const json = await cli(['pull', botKey, '--version', '1', '--format', 'json']);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(JSON.parse(json.stdout).version, 1);
      const unknown = await cli(['pull', botKey, '--version', '9']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /VERSION_NOT_FOUND/);
    });

    test("push --bot --publish sends If-Match with the file's version, publishes, and records the new version", async () => {
      const file = path.join(dir, 'pulled.bot.yaml');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Hello from {{city}}!', 'Welcome to {{city}}!'));
      const run = await cli(['push', 'pulled.bot.yaml', '--bot', botKey, '--publish']);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /\(If-Match: version 1\)\ndraft saved: version 2\npublished: version 3 is live\npulled\.bot\.yaml now says version: 3\n/);
      assert.equal(parseYaml(fs.readFileSync(file, 'utf8')).version, 3);
      const created = (await server.client.get('/bots', { token: await accountToken(server.client, accountKey) })).body.Result.find((b: any) => b.APIKey === botKey);
      const token = await botToken(server.client, accountKey, botKey, created.APISecret);
      const reply = await server.client.post('/custom/chat', { UserId: 'push-check' }, { token });
      assert.equal(reply.body.Parts[0].Text, 'Welcome to Paris!');
    });

    test('push is refused on a stale version: exit code 3, a clear message, the newer draft untouched; --force overwrites', async () => {
      const token = await accountToken(server.client, accountKey);
      const theirs = { ...(await draft()), description: 'changed in the designer' };
      delete theirs.version;
      const edited = await server.client.put(`/bots/${botKey}`, theirs, { token, headers: { 'If-Match': '3' } });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.Version, 4);
      const file = path.join(dir, 'pulled.bot.yaml');
      const before = fs.readFileSync(file, 'utf8');
      const run = await cli(['push', 'pulled.bot.yaml', '--bot', botKey]);
      assert.equal(run.code, 3, run.stdout + run.stderr);
      assert.match(run.stderr, /refused: the bot on the server is at version 4, newer than version 3 that pulled\.bot\.yaml was made from; someone changed it since\. Nothing was overwritten\./);
      assert.match(run.stderr, /--force to overwrite them/);
      assert.equal((await draft()).description, 'changed in the designer');
      assert.equal((await draft()).version, 4);
      assert.equal(fs.readFileSync(file, 'utf8'), before, 'the file is left as it was');
      const forced = await cli(['push', 'pulled.bot.yaml', '--bot', botKey, '--force']);
      assert.equal(forced.code, 0, forced.stderr);
      assert.equal((await draft()).version, 5);
      assert.notEqual((await draft()).description, 'changed in the designer');
    });

    test('a file without a version is not pushed over a bot unless --force; an invalid file is refused with its problems, nothing sent', async () => {
      const bare = folderWith({ 'bare.bot.yaml': STEPS_BOT, 'broken.bot.yaml': STEPS_BOT.replace('name: Steps Bot', 'name: ""').concat('version: 5\n') });
      const noVersion = await colloquy(['push', 'bare.bot.yaml', '--bot', botKey], { cwd: bare, env });
      assert.equal(noVersion.code, 3);
      assert.match(noVersion.stderr, /does not say which version of the bot it was made from/);
      const invalid = await colloquy(['push', 'broken.bot.yaml', '--bot', botKey], { cwd: bare, env });
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /broken\.bot\.yaml is not a valid bot file; nothing was sent:\n {2}\$\.name: /);
      assert.equal((await draft()).version, 5);
      const unreadable = await colloquy(['push', 'nothing.bot.yaml'], { cwd: bare, env });
      assert.equal(unreadable.code, 2);
      assert.match(unreadable.stderr, /nothing\.bot\.yaml cannot be read/);
      const noKey = await colloquy(['pull', botKey], { cwd: bare, env: cleanEnv({ COLLOQUY_SERVER: server.url }) });
      assert.equal(noKey.code, 2);
      assert.match(noKey.stderr, /COLLOQUY_ACCOUNT_KEY is not set/);
    });

    test('test --server runs the same files against the live bot through the custom channel; stubs are skipped with a note', async () => {
      // the live bot's callApi reaches a real (local) service, which answers differently from the stub
      const weather = http.createServer((_request, response) => response.end(JSON.stringify({ sky: 'grey' })));
      await new Promise<void>((resolve) => weather.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(weather.address() as { port: number }).port}/now`;
      try {
        const live = folderWith({
          'steps.bot.yaml': STEPS_BOT.replace('https://weather.example/now', url).replace('name: Steps Bot', 'name: Live Steps'),
          'pass.test.yaml': PASSING_TESTS,
          'support/support.bot.json': fs.readFileSync(path.join(SUPPORT_EXAMPLE, 'support.bot.json'), 'utf8'),
          'support/support.test.yaml': fs.readFileSync(path.join(SUPPORT_EXAMPLE, 'support.test.yaml'), 'utf8'),
        });
        for (const file of ['steps.bot.yaml', 'support/support.bot.json']) assert.equal((await colloquy(['push', file], { cwd: live, env })).code, 0);
        // a JSON file gets its version as a member of its own, the rest of the text unchanged
        const pushedJson = fs.readFileSync(path.join(live, 'support/support.bot.json'), 'utf8');
        assert.equal(JSON.parse(pushedJson).version, 1);
        assert.equal(pushedJson.replace('"version": 1,\n  ', ''), fs.readFileSync(path.join(SUPPORT_EXAMPLE, 'support.bot.json'), 'utf8'));
        const support = await colloquy(['test', 'support', '--server', server.url], { cwd: live, env });
        assert.equal(support.code, 0, support.stdout + support.stderr);
        assert.match(support.stdout, /running against the live bot on http:\/\/127\.0\.0\.1:\d+ \(custom channel\)/);
        assert.match(support.stdout, /\n6 tests, 6 passed, 0 failed/);
        const steps = await colloquy(['test', 'pass.test.yaml', '--server', server.url], { cwd: live, env });
        assert.equal(steps.code, 1, steps.stdout + steps.stderr);
        assert.match(steps.stdout, /note: callApi stubs skipped: the live bot makes its real calls\n {2}note: ai stubs skipped/);
        assert.match(
          steps.stdout,
          /✗ every step kind\n {6}at pass\.test\.yaml:\d+ {2}bot: \{"regex":"\^the sky is BLUE\\\\\.\$"\}\n {6}expected: a text matching \/\^the sky is BLUE\\\.\$\/\n {6}got: {6}"The sky is grey\."/,
        );
        const byKey = await colloquy(['test', 'pass.test.yaml', '--server', server.url, '--bot', 'nobody'], { cwd: live, env });
        assert.equal(byKey.code, 1);
        assert.match(byKey.stdout, /got: {6}the account has no bot with API key nobody/);
      } finally {
        await new Promise((resolve) => weather.close(resolve));
      }
    });
  });
}
