// The real command line as a child process: migrate, account create, bot import/export, the
// refusal to start on a busy port, and `serve` with the demo whose printed commands must work.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { invalidBot, invalidBots } from '../fixtures/invalid-bots.js';
import { withoutServerFields } from '../support/bots.js';
import { cliEnv, freePort, PROJECT_ROOT, runBash, runCli, startCli, waitForOutput } from '../support/cli.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { accountToken, botToken, supportBot } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const valueAfter = (text: string, label: string): string => {
  const match = new RegExp(`${label}\\s*:?\\s+(\\S+)`).exec(text);
  assert.ok(match, `"${label}" in:\n${text}`);
  return match[1]!;
};

for (const kind of databaseKinds()) {
  describe(`command line (${kind})`, () => {
    let database: TestDatabase;
    let env: NodeJS.ProcessEnv;
    let accountKey: string;
    let accountId: string;
    let botKey: string;
    let botSecret: string;
    before(async () => {
      database = await createTestDatabase(kind);
      env = cliEnv(database);
    });
    after(() => database.drop());

    test('migrate applies the migrations and exits 0, also when there is nothing left to do', async () => {
      const first = await runCli(['migrate'], env);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /database is up to date/);
      const second = await runCli(['migrate'], env);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /database is up to date/);
      assert.doesNotMatch(second.stdout, /applied migration/);
    });

    test('account create --name X prints the account id and API key', async () => {
      const res = await runCli(['account', 'create', '--name', 'CLI Company'], env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /account created: CLI Company \(standard\)/);
      accountKey = valueAfter(res.stdout, 'AccountAPIKey');
      accountId = valueAfter(res.stdout, 'AccountId');
      assert.notEqual(accountKey, accountId);
    });

    test('bot import FILE --account KEY creates a published bot and prints its key and secret', async () => {
      const res = await runCli(['bot', 'import', 'assets/support.bot.json', '--account', accountKey], env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /bot imported: Support Desk \(version 1, published\)/);
      botKey = valueAfter(res.stdout, 'BotAPIKey');
      botSecret = valueAfter(res.stdout, 'BotAPISecret');
    });

    test('bot import accepts a YAML file and the account id', async () => {
      const file = path.join(database.dataDir, 'support.bot.yaml');
      fs.writeFileSync(file, toYaml({ ...supportBot(), name: 'From YAML' }));
      const res = await runCli(['bot', 'import', file, '--account', accountId], env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /bot imported: From YAML \(version 1, published\)/);
    });

    test('bot export KEY prints a valid bot file with the same content', async () => {
      const res = await runCli(['bot', 'export', botKey], env);
      assert.equal(res.code, 0, res.stderr);
      const exported = JSON.parse(res.stdout);
      assert.equal(exported.version, 1);
      assert.deepEqual(withoutServerFields(exported), supportBot());
      assert.deepEqual(
        exported.behaviours.map((b: any) => b.name),
        ['Main', 'Orders', 'Escalation'],
      );
    });

    test('a bad file prints INVALID_BOT with every path and exits 1; nothing is imported', async () => {
      const broken = invalidBot(invalidBots.find((f) => f.path === '$.name')!);
      broken.settings.wordsPerMinute = 'fast';
      const file = path.join(database.dataDir, 'broken.bot.json');
      fs.writeFileSync(file, JSON.stringify(broken));
      const res = await runCli(['bot', 'import', file, '--account', accountKey], env);
      assert.equal(res.code, 1);
      assert.match(res.stderr, /INVALID_BOT/);
      assert.match(res.stderr, /\$\.name: /);
      assert.match(res.stderr, /\$\.settings\.wordsPerMinute: /);
      assert.doesNotMatch(res.stdout, /bot imported/);
      const unknown = await runCli(['bot', 'import', 'assets/support.bot.json', '--account', 'acc_nobody'], env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /ACCOUNT_NOT_FOUND/);
    });

    test('what the CLI made works over HTTP: tokens, chat, and the export is accepted by POST /bots', async () => {
      let server: TestServer | null = null;
      try {
        server = await startTestServerOn(database);
        const token = await botToken(server.client, accountKey, botKey, botSecret);
        const reply = await server.client.post('/custom/chat', { UserId: 'cli' }, { token });
        assert.deepEqual(
          reply.body.Parts.map((p: any) => p.Text),
          ['Welcome to ACME support!', 'What can I do for you?'],
        );
        const account = await accountToken(server.client, accountKey);
        const listed = await server.client.get('/bots', { token: account });
        assert.deepEqual(listed.body.Result.map((b: any) => b.Name).sort(), ['From YAML', 'Support Desk'], 'the broken file created nothing');
        const exported = JSON.parse((await runCli(['bot', 'export', botKey], env)).stdout);
        const created = await server.client.post('/bots', exported, { token: account });
        assert.equal(created.status, 201, created.text);
      } finally {
        await server?.close();
      }
    });
  });

  describe(`colloquy serve (${kind})`, () => {
    const databases: TestDatabase[] = [];
    after(async () => {
      for (const database of databases) await database.drop();
    });

    test('refuses to start on an occupied port, says why, and exits non-zero', async () => {
      const database = await createTestDatabase(kind);
      databases.push(database);
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const port = (blocker.address() as net.AddressInfo).port;
      try {
        const res = await runCli(['serve'], cliEnv(database, { PORT: String(port), HOST: '127.0.0.1', COLLOQUY_DEMO: '0' }));
        assert.notEqual(res.code, 0);
        assert.equal(res.code, 1);
        assert.match(res.stderr, /refusing to start/);
        assert.match(res.stderr, new RegExp(`port ${port} is already in use`));
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });

    test('with COLLOQUY_DEMO unset, prints the demo keys and commands that work when run', async () => {
      const database = await createTestDatabase(kind);
      databases.push(database);
      const port = await freePort();
      const server = startCli(['serve'], cliEnv(database, { PORT: String(port), HOST: '127.0.0.1' }));
      const exited = new Promise<number | null>((resolve) => server.on('close', (code) => resolve(code)));
      try {
        const output = await waitForOutput(server, /API docs: /);
        assert.match(output, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
        assert.match(output, /admin token \(shown once/);
        const accountKeyShown = valueAfter(output, 'account API key');
        const botKeyShown = valueAfter(output, 'bot API key');
        const secretShown = valueAfter(output, 'bot API secret');
        const lines = output.split('\n').map((l) => l.trim());
        const tokenLine = lines.find((l) => l.startsWith('TOKEN=$(curl '));
        const configLine = lines.find((l) => l.startsWith('curl ') && l.includes('/custom/config'));
        const chatLine = lines.find((l) => l.startsWith('curl ') && l.includes('/custom/chat'));
        assert.ok(tokenLine && configLine && chatLine, output);
        for (const shown of [accountKeyShown, botKeyShown, secretShown]) assert.ok(tokenLine.includes(shown), 'the token command uses the printed keys');

        const run = await runBash(`set -e\n${tokenLine}\ntest -n "$TOKEN"\n${configLine}\necho\n${chatLine}\n`);
        assert.equal(run.code, 0, run.stderr);
        const [configText, chatText] = run.stdout.trim().split('\n');
        const config = JSON.parse(configText!);
        assert.equal(config.Name, 'Support Desk');
        assert.equal(config.Version, 1);
        assert.equal(config.DefaultBehaviour.Name, 'Main');
        const chat = JSON.parse(chatText!);
        assert.equal(chat.UserId, 'me');
        assert.equal(chat.Parts[0].Text, 'Welcome to ACME support!');
      } finally {
        server.kill('SIGTERM');
      }
      assert.equal(await exited, 0, 'SIGTERM stops the server cleanly');
    });

    test('npm start compiles src/ to dist (unless it is current) and serves the compiled JavaScript: demo chat, widget, console, avatar', async () => {
      const database = await createTestDatabase(kind);
      databases.push(database);
      const port = await freePort();
      // its own process group: npm, the shell it starts and the server stop together
      const server = spawn('npm', ['start'], { cwd: PROJECT_ROOT, env: cliEnv(database, { PORT: String(port), HOST: '127.0.0.1' }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const exited = new Promise<void>((resolve) => server.on('close', () => resolve()));
      try {
        const output = await waitForOutput(server, /API docs: /);
        // compiled into a folder of its own and linked as dist, or dist already current (bin/build.js)
        assert.match(output, /compiled src\/ to dist\.[\w-]+ in \d+ ms|dist is current with src\//);
        // dist is a link to the build's own folder (from the compiled tests' tree, a link to that link)
        assert.match(path.basename(fs.realpathSync(path.join(PROJECT_ROOT, 'dist'))), /^dist\.[\w-]+$/);
        assert.match(output, /> node --max-semi-space-size=64 dist\/cli\.js serve/);
        const chatLine = output
          .split('\n')
          .map((l) => l.trim())
          .find((l) => l.startsWith('curl ') && l.includes('/custom/chat'));
        const tokenLine = output
          .split('\n')
          .map((l) => l.trim())
          .find((l) => l.startsWith('TOKEN=$(curl '));
        assert.ok(tokenLine && chatLine, output);
        const run = await runBash(`set -e\n${tokenLine}\n${chatLine}\n`);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(JSON.parse(run.stdout).Parts[0].Text, 'Welcome to ACME support!');
        // files found from import.meta.url: the widget's sources, the console page, the avatar
        const base = `http://127.0.0.1:${port}`;
        const widget = await fetch(`${base}/widget.js`);
        assert.equal(widget.status, 200);
        assert.ok((await widget.text()).length > 1000);
        const consolePage = await fetch(`${base}/console`);
        assert.equal(consolePage.status, 200);
        assert.match(await consolePage.text(), /<html/i);
        const avatar = await fetch(`${base}/avatar.svg`);
        assert.equal(avatar.status, 200);
        assert.match(await avatar.text(), /<svg/);
      } finally {
        process.kill(-server.pid!, 'SIGTERM');
      }
      await exited;
    });
  });
}
