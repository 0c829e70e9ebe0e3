// Per-bot analytics and the flow picture (docs/analytics.md): exact counts from a scripted set of
// conversations over two days (test/support/analytics-kit.ts), the period's rules, other accounts
// refused, and the live version's flow with its known paths; for account tokens and the console.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { analyticsBot, DAY_A, DAY_B, DAY_C, runScript } from '../support/analytics-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`analytics (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse(`${DAY_A}T08:00:00Z`);
    let mine: Tenant;
    let theirs: Tenant;
    let botId: string;
    let theirBotId: string;
    let c: ReturnType<typeof consoleClient>;

    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      mine = await createTenant(server.client, analyticsBot());
      theirs = await createTenant(server.client);
      botId = await botIdOf(server, mine.botKey);
      theirBotId = await botIdOf(server, theirs.botKey);
      await addOperator(server.client, mine.accountId, 'ann@example.org');
      await runScript(server, mine, 'ann@example.org', botId, (ms) => (now = ms));
      c = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
    });
    after(() => server.close());

    const analytics = (query = '', tenant = mine, key = mine.botKey) => server.client.get(`/bots/${key}/analytics${query}`, { token: tenant.accountToken });

    test('explore', async () => {
      const res = await analytics(`?from=${DAY_A}&to=${DAY_C}`);
      console.log(JSON.stringify(res.body, null, 1));
      const flow = await server.client.get(`/bots/${mine.botKey}/flow`, { token: mine.accountToken });
      console.log(JSON.stringify(flow.body));
    });
  });
}
