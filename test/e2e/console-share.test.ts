// Shared conversation URLs opened in the browser (api.md section 9, issue 4): the page and its
// API. Forged codes 404, expired 410 (HTML for browsers, JSON otherwise), view links cannot
// write (403), takeover links take over and write, auto links hand back when they expire.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { chatOk, summary, uid } from '../support/chat-kit.js';
import { readEvents } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const HOUR = 3_600_000;
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

for (const kind of databaseKinds()) {
  describe(`shared conversation pages (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse('2026-11-22T10:00:00Z');
    let tenant: Tenant;
    before(async () => {
      // bot tokens must outlive the hours the clock is moved by
      server = await startTestServer(kind, { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    /** A conversation and a share link of it; returns the link's path (/share/<code>). */
    async function shared(mode: string, hours = 1, text = 'human'): Promise<{ user: string; link: string }> {
      const user = uid(mode);
      await chatOk(server, tenant.botToken, { UserId: user, Text: text });
      const res = await server.client.post('/custom/share', { UserId: user, Mode: mode, Hours: hours }, { token: tenant.botToken });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.Url.startsWith(`${server.url}/share/`), res.body.Url);
      return { user, link: new URL(res.body.Url).pathname };
    }
    const stateOf = async (user: string) => (await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken })).body;

    test('the link opens the console page in one-conversation mode for a browser, the conversation as JSON otherwise', async () => {
      const { user, link } = await shared('view');
      const page = await server.client.get(link, { headers: HTML });
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(page.text, /data-mode="share"/);
      assert.match(page.text, new RegExp(`data-code="${link.split('/').pop()}"`));
      assert.match(page.headers.get('content-security-policy')!, /script-src 'self'/);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');

      const json = await server.client.get(link, { headers: { accept: 'application/json' } });
      assert.equal(json.status, 200, json.text);
      assert.equal(json.body.Mode, 'view');
      assert.equal(json.body.CanSend, false);
      assert.equal(json.body.Conversation.UserId, user);
      assert.equal(json.body.Conversation.State, 1, 'a view link does not take over');
      assert.deepEqual(summary(json.body.Transcript.at(-1).Parts), [[0, 'I am asking a colleague to join. Please hold on.']]);
      const api = await server.client.get(`${link}/api/conversation`);
      assert.deepEqual(api.body, json.body);
    });

    test('forged, unknown and dropped codes answer 404 (HTML page or JSON) on every share route', async () => {
      const { user, link } = await shared('takeover');
      const dropped = await server.client.post('/custom/state', { userid: user, state: 'handover', mode: 'dropshares' }, { token: tenant.botToken });
      assert.equal(dropped.status, 200);
      for (const path of ['/share/forged-code', `${link}x`, '/share/..%2F..%2Fetc', `/share/${'a'.repeat(100)}`, link]) {
        const page = await server.client.get(path, { headers: HTML });
        assert.equal(page.status, 404, path);
        assert.match(page.headers.get('content-type')!, /^text\/html/);
        assert.match(page.text, /does not exist/);
        for (const res of [await server.client.get(path), await server.client.get(`${path}/api/conversation`), await server.client.post(`${path}/api/messages`, { Text: 'hi' })]) {
          assert.equal(res.status, 404, `${path}: ${res.text}`);
          assert.equal(res.body.Code, 'SHARE_NOT_FOUND');
        }
        const stream = await readEvents(`${server.url}${path}/api/events`, { until: () => true });
        assert.equal(stream.status, 404);
      }
    });

    test('a view link cannot write: 403 SHARE_READ_ONLY, nothing stored', async () => {
      const { user, link } = await shared('view');
      const res = await server.client.post(`${link}/api/messages`, { Text: 'sneaky' });
      assert.equal(res.status, 403);
      assert.equal(res.body.Code, 'SHARE_READ_ONLY');
      const ready = await chatOk(server, tenant.botToken, { UserId: user, Command: 'READY' });
      assert.equal(
        ready.Parts.some((p: any) => p.Text === 'sneaky'),
        false,
      );
      assert.equal((await stateOf(user)).State, 1);
    });

    test('opening a takeover link takes the conversation over (operator *) and lets the holder write', async () => {
      const { user, link } = await shared('takeover');
      const opened = await server.client.get(link, { headers: HTML });
      assert.equal(opened.status, 200);
      assert.deepEqual(await stateOf(user), { UserId: user, State: 2, Operator: '*', BanExpiration: null, BanMessage: null });
      const view = await server.client.get(`${link}/api/conversation`);
      assert.equal(view.body.CanSend, true);
      const sent = await server.client.post(`${link}/api/messages`, { Text: 'Operator here.' });
      assert.equal(sent.status, 200, sent.text);
      const pending = await chatOk(server, tenant.botToken, { UserId: user, Command: 'PENDING' });
      assert.deepEqual(summary(pending.Parts), [[0, 'Operator here.']]);
    });

    test('an expired link answers 410 (HTML page or JSON)', async () => {
      const { link } = await shared('takeover', 2);
      const start = now;
      try {
        now = start + 2 * HOUR;
        const page = await server.client.get(link, { headers: HTML });
        assert.equal(page.status, 410);
        assert.match(page.text, /expired/);
        for (const res of [await server.client.get(link), await server.client.get(`${link}/api/conversation`), await server.client.post(`${link}/api/messages`, { Text: 'late' })]) {
          assert.equal(res.status, 410, res.text);
          assert.equal(res.body.Code, 'SHARE_EXPIRED');
        }
      } finally {
        now = start;
      }
    });

    test('an auto link takes over when opened and hands back to the bot when it expires', async () => {
      const { user, link } = await shared('auto', 1);
      assert.equal((await server.client.get(link)).status, 200);
      assert.equal((await stateOf(user)).State, 2);
      const start = now;
      try {
        now = start + HOUR - 1;
        await server.running.maintenance.runOnce();
        assert.equal((await stateOf(user)).State, 2, 'not yet');
        now = start + HOUR;
        await server.running.maintenance.runOnce();
        assert.deepEqual(await stateOf(user), { UserId: user, State: 0, Operator: null, BanExpiration: null, BanMessage: null });
        assert.equal((await server.client.get(link)).status, 410);
        const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'restart' });
        assert.equal(reply.ControlType, 0);
        assert.ok(reply.Parts.length > 0, 'the bot answers again');
      } finally {
        now = start;
      }
    });

    test('the link’s event stream carries that conversation only, and ends when the link is dropped', async () => {
      const { user, link } = await shared('view');
      const other = uid('other');
      await chatOk(server, tenant.botToken, { UserId: other });
      const read = await readEvents(`${server.url}${link}/api/events`, {
        opened: async () => {
          await chatOk(server, tenant.botToken, { UserId: other, Text: 'human' });
          await chatOk(server, tenant.botToken, { UserId: user, Text: 'still there?' });
          await server.client.post('/custom/state', { userid: user, state: 'handover', mode: 'dropshares' }, { token: tenant.botToken });
        },
        until: (events) => events.some((e) => e.Kind === 'ended'),
      });
      assert.equal(read.status, 200);
      assert.deepEqual(
        read.events.map((e) => [e.Kind, e.UserId ?? null]),
        [
          ['message', user],
          ['message', user],
          ['state', user],
          ['ended', null],
        ],
      );
      assert.deepEqual(summary(read.events[0].Parts), [[19, 'still there?']]);
    });
  });
}
