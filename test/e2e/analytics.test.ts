// Per-bot analytics and the flow picture (docs/analytics.md): exact counts from a scripted set of
// conversations over two days (test/support/analytics-kit.ts), the period's rules, other accounts
// refused, and the live version's flow with its known paths; for account tokens and the console.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { analyticsBot, at, DAY_A, DAY_B, DAY_C, runScript } from '../support/analytics-kit.js';
import { botFile, chatOk, text } from '../support/chat-kit.js';
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

    const NO_FIGURES = { Requests: 0, WaitP50Seconds: null, WaitP90Seconds: null, FirstResponseP50Seconds: null, FirstResponseP90Seconds: null, CsatAnswers: 0, CsatAverage: null };
    const day = (date: string, counts: number[], figures: Partial<typeof NO_FIGURES> | Record<string, number | null> = {}) => {
      const [Conversations, UserMessages, BotMessages, OperatorMessages, HandOvers, MissedTexts] = counts;
      // this bot has no knowledge: no question asked of it (knowledge-analytics.test.ts counts them)
      return { Date: date, Conversations, UserMessages, BotMessages, OperatorMessages, HandOvers, MissedTexts, KnowledgeAnswered: 0, KnowledgeUnanswered: 0, ...NO_FIGURES, ...figures };
    };
    // Day A: 4 starts (4 bot messages) and 5 answered user messages; 1 text reached the fallback;
    // u3's "human" handed over (a wait nobody answered); u7 rated 3. Day B: 4 starts, 10 user
    // messages answered, two operator messages; u4's 2 texts reached the fallback; u1 handed over
    // (the takeovers after it are the same hand-over) and waited twice: 120 s and 600 s to a
    // takeover, 300 s and 660 s to the operator's first message; u8 rated 5 and u9 rated 4.
    const DAY_A_COUNTS = day(DAY_A, [4, 5, 9, 0, 1, 1], { Requests: 1, CsatAnswers: 1, CsatAverage: 3 });
    const DAY_B_COUNTS = day(DAY_B, [4, 10, 14, 2, 1, 2], {
      Requests: 2,
      WaitP50Seconds: 120,
      WaitP90Seconds: 600,
      FirstResponseP50Seconds: 300,
      FirstResponseP90Seconds: 660,
      CsatAnswers: 2,
      CsatAverage: 4.5,
    });
    const NONE = { Requests: 0, Waiting: { Count: 0, P50Seconds: null, P90Seconds: null }, FirstResponse: { Count: 0, P50Seconds: null, P90Seconds: null } };
    const NO_CSAT = { Answers: 0, Average: null, Distribution: [0, 0, 0, 0, 0] };
    const ZERO = { Conversations: 0, UserMessages: 0, BotMessages: 0, OperatorMessages: 0, HandOvers: 0, MissedTexts: 0, KnowledgeAnswered: 0, KnowledgeUnanswered: 0, FallbackShare: 0 };
    const DROP_OFF = [
      { Behaviour: 'Rate', Interaction: 'Ask', Conversations: 3 },
      { Behaviour: 'Help', Interaction: 'Ask', Conversations: 2 },
      { Behaviour: 'Main', Interaction: 'Sorry', Conversations: 1 },
      { Behaviour: 'Orders', Interaction: 'Done', Conversations: 1 },
      { Behaviour: 'Orders', Interaction: 'Number', Conversations: 1 },
    ];

    test('counts per day, totals, fallback share and drop-off over a chosen period', async () => {
      const res = await analytics(`?from=${DAY_A}&to=${DAY_B}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        BotId: botId,
        BotName: 'Analytics bot',
        From: DAY_A,
        To: DAY_B,
        Totals: { Conversations: 8, UserMessages: 15, BotMessages: 23, OperatorMessages: 2, HandOvers: 2, MissedTexts: 3, KnowledgeAnswered: 0, KnowledgeUnanswered: 0, FallbackShare: 0.2 },
        Waits: { Requests: 3, Waiting: { Count: 2, P50Seconds: 120, P90Seconds: 600 }, FirstResponse: { Count: 2, P50Seconds: 300, P90Seconds: 660 } },
        Csat: { Answers: 3, Average: 4, Distribution: [0, 0, 1, 1, 1] },
        Days: [DAY_A_COUNTS, DAY_B_COUNTS],
        IdleMinutes: 30,
        DropOff: DROP_OFF,
        // the two days before: nothing happened yet
        Previous: { From: '2026-10-30', To: '2026-10-31', Totals: ZERO, Waits: NONE, Csat: NO_CSAT },
      });
      const one = await analytics(`?from=${DAY_B}&to=${DAY_B}`);
      assert.deepEqual(one.body.Days, [DAY_B_COUNTS]);
      assert.equal(one.body.Totals.FallbackShare, 0.2);
      // Only conversations last active on day B: u1 (Help/Ask), u4 (Main/Sorry), u5 (Orders/Done), u8 and u9 (Rate/Ask).
      assert.deepEqual(one.body.DropOff.length, 4);
      assert.deepEqual((await analytics(`?from=${DAY_A}&to=${DAY_A}`)).body.DropOff, [
        { Behaviour: 'Help', Interaction: 'Ask', Conversations: 1 },
        { Behaviour: 'Orders', Interaction: 'Number', Conversations: 1 },
        { Behaviour: 'Rate', Interaction: 'Ask', Conversations: 1 },
      ]);
    });

    test('waits for a person, first responses and CSAT, beside the previous period of the same length', async () => {
      const res = await analytics(`?from=${DAY_B}&to=${DAY_B}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.Waits, { Requests: 2, Waiting: { Count: 2, P50Seconds: 120, P90Seconds: 600 }, FirstResponse: { Count: 2, P50Seconds: 300, P90Seconds: 660 } });
      assert.deepEqual(res.body.Csat, { Answers: 2, Average: 4.5, Distribution: [0, 0, 0, 1, 1] });
      // Day A before it: u3 waited and was never taken over nor answered; u7 rated 3.
      assert.deepEqual(res.body.Previous, {
        From: DAY_A,
        To: DAY_A,
        Totals: { Conversations: 4, UserMessages: 5, BotMessages: 9, OperatorMessages: 0, HandOvers: 1, MissedTexts: 1, KnowledgeAnswered: 0, KnowledgeUnanswered: 0, FallbackShare: 0.2 },
        Waits: { ...NONE, Requests: 1 },
        Csat: { Answers: 1, Average: 3, Distribution: [0, 0, 1, 0, 0] },
      });
      // Day C's previous period is day B.
      const c = await analytics(`?from=${DAY_C}&to=${DAY_C}`);
      assert.deepEqual(c.body.Previous.Waits, res.body.Waits);
      assert.deepEqual([c.body.Waits, c.body.Csat], [NONE, NO_CSAT]);
    });

    test('by default the last 30 days up to today; a conversation active in the last 30 minutes has not stopped yet', async () => {
      const res = await analytics();
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.From, '2026-10-05');
      assert.equal(res.body.To, DAY_C);
      assert.equal(res.body.Days.length, 30);
      assert.deepEqual(res.body.Days.slice(-3), [DAY_A_COUNTS, DAY_B_COUNTS, day(DAY_C, [1, 0, 1, 0, 0, 0])]);
      assert.deepEqual(res.body.Days[0], day('2026-10-05', [0, 0, 0, 0, 0, 0]));
      assert.equal(res.body.Totals.Conversations, 9);
      assert.deepEqual([res.body.Previous.From, res.body.Previous.To], ['2026-09-05', '2026-10-04']);
      assert.deepEqual(res.body.DropOff, DROP_OFF);
      assert.deepEqual((await analytics(`?to=${DAY_A}`)).body.From, '2026-10-03');
    });

    test('CSAT: each change of `csat` to 1..5 is an answer; other values and the same value again are not', async () => {
      const set = (value: string) => ({ type: 'setVariable', name: 'csat', value });
      const file = botFile([{ name: 'Welcome', actions: [text('Hi')] }], {
        name: 'Rater',
        triggers: [
          { match: 'great', actions: [set('great')] },
          { match: 'five', actions: [set('5')] },
          { match: 'two', actions: [set('2')] },
          { match: 'clear', actions: [{ type: 'setVariable', name: 'csat', mode: 'clear' }] },
        ],
      });
      const rater = await createTenant(server.client, file);
      now = at(DAY_C, '12:00');
      for (const Text of [undefined, 'great', 'five', 'five', 'two', 'clear', 'two']) {
        await chatOk(server, rater.botToken, { UserId: 'rater-1', ...(Text === undefined ? {} : { Text }) });
      }
      const res = await server.client.get(`/bots/${rater.botKey}/analytics?from=${DAY_C}&to=${DAY_C}`, { token: rater.accountToken });
      assert.equal(res.status, 200, res.text);
      // "great" is no rating; the second "five" changes nothing; "two" after "clear" is a new answer
      assert.deepEqual(res.body.Csat, { Answers: 3, Average: 3, Distribution: [0, 2, 0, 0, 1] });
    });

    test('bad periods are refused with INVALID_REQUEST', async () => {
      for (const [query, field] of [
        ['?from=2026-13-01', 'from'],
        ['?from=2026-02-30', 'from'],
        ['?to=yesterday', 'to'],
        [`?from=${DAY_B}&to=${DAY_A}`, 'from'],
        ['?from=2025-11-01&to=2026-11-02', 'from'],
      ]) {
        const res = await analytics(query);
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.equal(res.body.Code, 'INVALID_REQUEST', query);
        assert.equal(res.body.Field, field, query);
      }
      assert.equal((await analytics('?from=2025-11-02&to=2026-11-02')).status, 200, '366 days are allowed');
    });

    test("another account's bot is refused as by the other /bots/{APIKey} routes; a missing one is 404", async () => {
      for (const path of ['analytics', 'flow']) {
        const other = await server.client.get(`/bots/${theirs.botKey}/${path}`, { token: mine.accountToken });
        assert.equal(other.status, 403, other.text);
        assert.equal(other.body.Code, 'TOKEN_SCOPE');
        const missing = await server.client.get(`/bots/no-such-bot/${path}`, { token: mine.accountToken });
        assert.equal(missing.status, 404);
        assert.equal(missing.body.Code, 'BOT_NOT_FOUND');
        const anonymous = await server.client.get(`/bots/${mine.botKey}/${path}`);
        assert.equal(anonymous.status, 401);
        const botToken = await server.client.get(`/bots/${mine.botKey}/${path}`, { token: mine.botToken });
        assert.equal(botToken.status, 403, 'a bot token is not an account token');
      }
    });

    test('the flow of the live version: behaviours, interactions and the literal goTo paths between them', async () => {
      const res = await server.client.get(`/bots/${mine.botKey}/flow`, { token: mine.accountToken });
      assert.equal(res.status, 200, res.text);
      const node = (Id: string, Name: string, Behaviour: string | null, Start = false, Fallback = false, HandOver = false) => ({
        Id,
        Kind: Behaviour === null ? 'behaviour' : 'interaction',
        Name,
        Behaviour,
        Start,
        Fallback,
        HandOver,
      });
      assert.deepEqual(res.body.Nodes, [
        node('b:Main', 'Main', null, true),
        node('i:Main/Welcome', 'Welcome', 'Main', true),
        node('i:Main/Sorry', 'Sorry', 'Main', false, true),
        node('b:Orders', 'Orders', null),
        node('i:Orders/Number', 'Number', 'Orders', true),
        node('i:Orders/Done', 'Done', 'Orders'),
        node('b:Help', 'Help', null),
        // its operator action asks for a person (issue 27: the hand-over is drawn)
        node('i:Help/Ask', 'Ask', 'Help', true, false, true),
        node('b:Rate', 'Rate', null),
        node('i:Rate/Ask', 'Ask', 'Rate', true),
      ]);
      // The templated goTo of Orders/Done is only known at run time: not drawn.
      assert.deepEqual(res.body.Edges, [
        { From: 'b:Main', To: 'i:Main/Welcome', Kind: 'start', Label: null },
        { From: 'i:Main/Welcome', To: 'i:Orders/Number', Kind: 'button', Label: 'Order' },
        { From: 'i:Main/Welcome', To: 'i:Help/Ask', Kind: 'button', Label: 'Help' },
        { From: 'b:Orders', To: 'i:Orders/Number', Kind: 'start', Label: null },
        { From: 'i:Orders/Number', To: 'i:Orders/Done', Kind: 'success', Label: null },
        { From: 'i:Orders/Number', To: 'i:Main/Welcome', Kind: 'giveUp', Label: null },
        { From: 'b:Help', To: 'i:Help/Ask', Kind: 'start', Label: null },
        { From: 'b:Rate', To: 'i:Rate/Ask', Kind: 'start', Label: null },
        { From: 'b:Main', To: 'i:Help/Ask', Kind: 'trigger', Label: '"human"' },
        { From: 'b:Main', To: 'i:Rate/Ask', Kind: 'trigger', Label: '"rate"' },
      ]);
      // A saved draft is not live: the picture stays the published version's.
      const draft = analyticsBot();
      draft.behaviours.push({ name: 'Draft only', interactions: [{ name: 'New', start: true, actions: [] }] });
      const saved = await server.client.put(`/bots/${mine.botKey}`, draft, { token: mine.accountToken });
      assert.equal(saved.status, 200, saved.text);
      const again = await server.client.get(`/bots/${mine.botKey}/flow`, { token: mine.accountToken });
      assert.equal(again.body.Nodes.length, 10);
    });

    test('the console: the account’s bots, and the same analytics and flow for a signed-in operator', async () => {
      const bots = await c.get('/bots');
      assert.equal(bots.status, 200, bots.text);
      assert.deepEqual(bots.body, { Result: [{ BotId: botId, Name: 'Analytics bot', Published: true }] });
      const res = await c.get(`/bots/${botId}/analytics?from=${DAY_A}&to=${DAY_B}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, (await analytics(`?from=${DAY_A}&to=${DAY_B}`)).body);
      const flow = await c.get(`/bots/${botId}/flow`);
      assert.equal(flow.status, 200);
      assert.equal(flow.body.Nodes.length, 10);
      assert.equal(flow.body.Edges.length, 10);
      const bad = await c.get(`/bots/${botId}/analytics?from=2026-11-31`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.Field, 'from');
      for (const path of [`/bots/${theirBotId}/analytics`, `/bots/${theirBotId}/flow`, '/bots/nope/flow']) {
        const other = await c.get(path);
        assert.equal(other.status, 404, `${path}: ${other.text}`);
        assert.equal(other.body.Code, 'BOT_NOT_FOUND');
      }
      const anonymous = await server.client.get(`/console/api/bots/${botId}/analytics`);
      assert.equal(anonymous.status, 401);
    });

    test('the analytics page: CSP-compliant, its script and style served', async () => {
      const page = await fetch(`${server.url}/console/analytics`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/);
      const html = await page.text();
      assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]|style=/, 'no inline script or style');
      const script = await fetch(`${server.url}/console/analytics/app.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
      assert.ok((await script.text()).length > 10_000, 'Chart.js and dagre are bundled in');
      const style = await fetch(`${server.url}/console/analytics/app.css`);
      assert.equal(style.status, 200);
      assert.match(style.headers.get('content-type') ?? '', /text\/css/);
    });
  });
}
