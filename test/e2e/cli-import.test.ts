// `colloquy import <file> [--format] [--name] [--dry-run]` (importers.md) against a real server, as
// a person runs it: --dry-run prints the report and creates nothing; without it the bot is created
// and live; a file that is no export is refused with its Code (exit 1), a missing file is exit 2.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cleanEnv, colloquy } from '../support/bot-test-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount } from '../support/fixtures.js';
import { sharedImports } from '../support/import-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const LEAD_GEN = path.join(sharedImports, 'typebot/lead-gen/lead-gen.json');

for (const kind of databaseKinds()) {
  describe(`colloquy import (${kind})`, () => {
    let server: TestServer;
    let env: NodeJS.ProcessEnv;
    let token: string;
    before(async () => {
      server = await startTestServer(kind);
      const accountKey = (await createAccount(server.client)).AccountAPIKey;
      env = cleanEnv({ COLLOQUY_ACCOUNT_KEY: accountKey, COLLOQUY_SERVER: server.url });
      token = await accountToken(server.client, accountKey);
    });
    after(() => server.close());
    const bots = async () => (await server.client.get('/bots', { token })).body.Result;

    test('--dry-run prints the report and creates nothing', async () => {
      const run = await colloquy(['import', path.join(sharedImports, 'typebot/digital-product-payment/digital-product-payment.json'), '--dry-run'], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^dry run: .*digital-product-payment\.json read as a typebot export; nothing was created$/m);
      assert.match(run.stdout, /^converted: 1 behaviours, 7 interactions, 0 intents, 0 entities, 2 variables, 29 actions$/m);
      assert.match(run.stdout, /^ {2}digital-product-payment\.json: \$\.groups\[4\]\.blocks\[2\]\n {4}a "payment input" block: /m);
      assert.deepEqual(await bots(), []);
    });

    test('without --dry-run the bot is created, live, under --name', async () => {
      const run = await colloquy(['import', LEAD_GEN, '--name', 'Leads', '--format', 'typebot'], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^created "Leads" from a typebot export \(version 1, live\)$/m);
      const key = /BotAPIKey\s+(\S+)/.exec(run.stdout)![1];
      assert.deepEqual(
        (await bots()).map((b: any) => [b.APIKey, b.Name, b.Version]),
        [[key, 'Leads', 1]],
      );
      assert.match(run.stdout, /^skipped: nothing$/m);
    });

    test('a file that is no export: exit 1 with its Code; a missing file: exit 2', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-import-'));
      fs.writeFileSync(path.join(dir, 'notes.json'), '{"hello": "world"}');
      const refused = await colloquy(['import', path.join(dir, 'notes.json')], { env });
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /IMPORT_UNSUPPORTED: This is not a Typebot, Rasa or Dialogflow ES export\./);
      const missing = await colloquy(['import', path.join(dir, 'nope.zip')], { env });
      assert.equal(missing.code, 2, missing.stderr);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
}
