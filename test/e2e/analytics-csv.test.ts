// CSV exports of analytics (docs/analytics.md "CSV exports", issue 27): the figures of a period and
// the transcripts of its messages, for an account token and for a signed-in operator, with exact
// contents; cells a spreadsheet would run as formulas are defused; other accounts, bad periods and
// roles that do not open the data are refused as the JSON routes refuse them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { analyticsBot, at, DAY_A, DAY_B, runScript } from '../support/analytics-kit.js';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const DAY_D = '2026-11-05';
const quoted = (cells: string[]) => cells.map((c) => `"${c}"`).join(',');
const HEADER = `${quoted(['Date', 'Conversations', 'UserMessages', 'BotMessages', 'OperatorMessages', 'HandOvers', 'MissedTexts', 'Requests', 'WaitP50Seconds', 'WaitP90Seconds', 'FirstResponseP50Seconds', 'FirstResponseP90Seconds', 'CsatAnswers', 'CsatAverage'])}\r\n`;
const TRANSCRIPT_HEADER = quoted(['UserId', 'Channel', 'Time', 'Direction', 'Text']);

for (const kind of databaseKinds()) {
  describe(`analytics CSV exports (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse(`${DAY_A}T08:00:00Z`);
    let mine: Tenant;
    let quiet: Tenant;
    let botId: string;
    let quietBotId: string;

    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      mine = await createTenant(server.client, analyticsBot());
      quiet = await createTenant(server.client, analyticsBot());
      botId = await botIdOf(server, mine.botKey);
      quietBotId = await botIdOf(server, quiet.botKey);
      await addOperator(server.client, mine.accountId, 'ann@example.org');
      await addOperator(server.client, mine.accountId, 'dee@example.org', undefined, 'Dee Designer', 'designer');
      await addOperator(server.client, mine.accountId, 'al@example.org', undefined, 'Al Agent', 'agent');
      await runScript(server, mine, 'ann@example.org', botId, (ms) => (now = ms));
      // A visitor of another bot who types what a spreadsheet would run, and text that needs quoting.
      now = at(DAY_D, '09:00');
      for (const Text of [undefined, '=HYPERLINK("http://evil.example","x")', '+1', '-2', '@SUM(A1)', "a;=cmd|' /C calc'!A0", 'He said "hi", then\nleft']) {
        await chatOk(server, quiet.botToken, { UserId: 'visitor-1', ...(Text === undefined ? {} : { Text }) });
        now += 60_000;
      }
    });
    after(() => server.close());

    const get = (path: string, tenant = mine) => server.client.get(path, { token: tenant.accountToken });

    test('the figures: a row per day and a total, the same for a token and for the console', async () => {
      const res = await get(`/bots/${mine.botKey}/analytics.csv?from=${DAY_A}&to=${DAY_B}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="analytics-${DAY_A}-${DAY_B}.csv"`);
      assert.equal(res.text, `${HEADER}"2026-11-01",4,5,9,0,1,1,1,,,,,1,3\r\n"2026-11-02",4,10,14,2,1,2,2,120,600,300,660,2,4.5\r\n"Total",8,15,23,2,2,3,3,120,600,300,660,3,4\r\n`);
      const designer = consoleClient(server.client, await signIn(server.client, 'dee@example.org'));
      const fromConsole = await designer.get(`/bots/${botId}/analytics.csv?from=${DAY_A}&to=${DAY_B}`);
      assert.equal(fromConsole.status, 200, fromConsole.text);
      assert.equal(fromConsole.text, res.text);
    });

    test('the transcripts: every message of the period by conversation, formulas defused, quoting kept', async () => {
      const res = await get(`/bots/${quiet.botKey}/transcripts.csv?from=${DAY_D}&to=${DAY_D}`, quiet);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="transcripts-${DAY_D}-${DAY_D}.csv"`);
      const row = (minute: number, direction: string) => quoted(['visitor-1', 'custom', `${DAY_D}T09:0${minute}:00.000+00:00`, direction]);
      assert.equal(
        res.text,
        [
          TRANSCRIPT_HEADER,
          `${row(0, 'BOT')},"Hi\nPick one\n[Order]\n[Help]"`,
          `${row(1, 'USER')},"'=HYPERLINK(""http://evil.example"",""x"")"`,
          `${row(1, 'BOT')},"Sorry?"`,
          `${row(2, 'USER')},"'+1"`,
          `${row(2, 'BOT')},"Sorry?"`,
          `${row(3, 'USER')},"'-2"`,
          `${row(3, 'BOT')},"Sorry?"`,
          `${row(4, 'USER')},"'@SUM(A1)"`,
          `${row(4, 'BOT')},"Sorry?"`,
          // Excel with ; as its separator reads the part after the ; as a cell of its own
          `${row(5, 'USER')},"a;'=cmd|' /C calc'!A0"`,
          `${row(5, 'BOT')},"Sorry?"`,
          `${row(6, 'USER')},"He said ""hi"", then\nleft"`,
          `${row(6, 'BOT')},"Sorry?"`,
          '',
        ].join('\r\n'),
      );
      // Another day has none of them; the busy bot's day B has its 26 messages and a header.
      assert.equal((await get(`/bots/${quiet.botKey}/transcripts.csv?from=${DAY_B}&to=${DAY_B}`, quiet)).text, `${TRANSCRIPT_HEADER}\r\n`);
      const busy = await get(`/bots/${mine.botKey}/transcripts.csv?from=${DAY_B}&to=${DAY_B}`);
      assert.equal(busy.text.split('\r\n').length - 2, 26);
      assert.match(busy.text, /,"2026-11-02T11:05:00\.000\+00:00","OPERATOR","Hello, Ann here"\r\n/);
    });

    test('the console: transcripts for the roles that open conversations, figures for those that open analytics', async () => {
      const admin = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
      const agent = consoleClient(server.client, await signIn(server.client, 'al@example.org'));
      const designer = consoleClient(server.client, await signIn(server.client, 'dee@example.org'));
      const path = `/bots/${botId}/transcripts.csv?from=${DAY_B}&to=${DAY_B}`;
      const token = await get(`/bots/${mine.botKey}/transcripts.csv?from=${DAY_B}&to=${DAY_B}`);
      for (const operator of [admin, agent]) {
        const res = await operator.get(path);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.text, token.text);
      }
      const refused = await designer.get(path);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.Code, 'ROLE_FORBIDDEN');
      const agentFigures = await agent.get(`/bots/${botId}/analytics.csv`);
      assert.equal(agentFigures.status, 403);
      assert.equal(agentFigures.body.Code, 'ROLE_FORBIDDEN');
      // another account's bot is a missing one in the console
      for (const file of ['analytics.csv', 'transcripts.csv']) {
        const other = await admin.get(`/bots/${quietBotId}/${file}`);
        assert.equal(other.status, 404, other.text);
        assert.equal(other.body.Code, 'BOT_NOT_FOUND');
      }
      assert.equal((await server.client.get(`/console/api/bots/${botId}/transcripts.csv`)).status, 401);
    });

    test("another account's bot, a bot token and bad periods are refused with JSON errors", async () => {
      for (const file of ['analytics.csv', 'transcripts.csv']) {
        const other = await get(`/bots/${quiet.botKey}/${file}`);
        assert.equal(other.status, 403, other.text);
        assert.equal(other.body.Code, 'TOKEN_SCOPE');
        const botToken = await server.client.get(`/bots/${mine.botKey}/${file}`, { token: mine.botToken });
        assert.equal(botToken.status, 403);
        assert.equal((await server.client.get(`/bots/${mine.botKey}/${file}`)).status, 401);
        for (const [query, field] of [
          [`?from=${DAY_B}&to=${DAY_A}`, 'from'],
          ['?to=2026-02-30', 'to'],
          ['?from=2025-01-01&to=2026-11-02', 'from'],
        ]) {
          const bad = await get(`/bots/${mine.botKey}/${file}${query}`);
          assert.equal(bad.status, 400, `${file}${query}: ${bad.text}`);
          assert.equal(bad.body.Code, 'INVALID_REQUEST');
          assert.equal(bad.body.Field, field);
        }
        const long = await get(`/bots/${mine.botKey}/${file}?from=${'2'.repeat(11)}`);
        assert.equal(long.status, 400);
        assert.equal(long.body.Code, 'INVALID_REQUEST');
      }
    });
  });
}
