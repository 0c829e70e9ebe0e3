// api.md section 9: creating shared conversation URLs (POST /custom/share, the path form, the
// `shareUrl` action) and every status code: 200 {Url} on COLLOQUY_PUBLIC_URL, 400 for another
// mode or Hours not a positive number, 404 for an unknown user; opened links 404 when unknown or
// dropped, 410 once expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockFrom } from '../../src/shared/clock.js';
import { botFile, chatOk, text, uid, variablesOf } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PUBLIC = 'https://chat.example.org/base';
const HOUR = 3_600_000;
const sharingBot = () =>
  botFile([{ name: 'Start', actions: [text('Hi')] }], {
    triggers: [{ match: 'share it', actions: [{ type: 'shareUrl', mode: 'takeover', hours: 2 }, text('Link: {{conversation_share_url}}')] }],
  });

for (const kind of databaseKinds()) {
  describe(`shared conversation URLs, api.md 9 (${kind})`, () => {
    let server: TestServer;
    let now = Date.parse('2026-11-22T10:00:00Z');
    let tenant: Tenant;
    let sharing: Tenant;
    before(async () => {
      server = await startTestServer(kind, { COLLOQUY_PUBLIC_URL: PUBLIC, COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
      tenant = await createTenant(server.client);
      sharing = await createTenant(server.client, sharingBot());
    });
    after(() => server.close());

    const create = (body: Record<string, unknown>) => server.client.post('/custom/share', body, { token: tenant.botToken });
    /** The served path of a URL on the public base (the test talks to the real port). */
    const local = (url: string) => url.slice(PUBLIC.length);
    const started = async () => {
      const user = uid('share');
      await chatOk(server, tenant.botToken, { UserId: user });
      return user;
    };

    test('POST /custom/share → 200 {Url} = COLLOQUY_PUBLIC_URL + /share/<code>, for each mode; codes are unguessable', async () => {
      const user = await started();
      const codes = new Set<string>();
      for (const Mode of ['view', 'takeover', 'auto', 'VIEW']) {
        const res = await create({ UserId: user, Mode, Hours: 1.5 });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.body), ['Url']);
        assert.match(res.body.Url, /^https:\/\/chat\.example\.org\/base\/share\/[\w-]{20,}$/);
        codes.add(res.body.Url);
        const opened = await server.client.get(local(res.body.Url));
        assert.equal(opened.status, 200, opened.text);
        assert.equal(opened.body.Mode, Mode.toLowerCase());
        assert.equal(opened.body.ExpiresAt, new Date(now + 1.5 * HOUR).toISOString().replace('Z', '+00:00'));
      }
      assert.equal(codes.size, 4);
    });

    test('POST /custom/share → 400 for another mode or Hours not a positive number; 404 for an unknown user', async () => {
      const user = await started();
      for (const body of [
        { UserId: user, Mode: 'edit', Hours: 1 },
        { UserId: user, Mode: '', Hours: 1 },
        { UserId: user, Mode: 'view', Hours: 0 },
        { UserId: user, Mode: 'view', Hours: -3 },
        { UserId: user, Mode: 'view', Hours: 'soon' },
        { UserId: user, Mode: 'view' },
        { Mode: 'view', Hours: 1 },
      ]) {
        const res = await create(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      const unknown = await create({ UserId: 'nobody-here', Mode: 'view', Hours: 1 });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.Code, 'CONVERSATION_NOT_FOUND');
    });

    test('GET /conversation/share/{mode}/{userid}/{hours}: 200, 400, 404 as the POST form', async () => {
      const user = await started();
      const ok = await server.client.get(`/conversation/share/view/${user}/2`, { token: tenant.botToken });
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await server.client.get(local(ok.body.Url))).body.Mode, 'view');
      assert.equal((await server.client.get(`/conversation/share/edit/${user}/2`, { token: tenant.botToken })).status, 400);
      assert.equal((await server.client.get(`/conversation/share/view/${user}/0`, { token: tenant.botToken })).status, 400);
      assert.equal((await server.client.get(`/conversation/share/view/${user}/x`, { token: tenant.botToken })).status, 400);
      assert.equal((await server.client.get(`/conversation/share/view/nobody-here/2`, { token: tenant.botToken })).status, 404);
    });

    test('the shareUrl action stores a working link in conversation_share_url', async () => {
      const user = uid('action');
      const reply = await chatOk(server, sharing.botToken, { UserId: user, Text: 'share it' });
      const url = (await variablesOf(server, sharing.botToken, user)).conversation_share_url;
      assert.ok(url?.startsWith(`${PUBLIC}/share/`), url);
      assert.equal(reply.Parts[0].Text, `Link: ${url}`);
      const opened = await server.client.get(local(url!));
      assert.equal(opened.status, 200, opened.text);
      assert.equal(opened.body.Mode, 'takeover');
      assert.equal(opened.body.Conversation.State, 2, 'a takeover link takes over when opened');
    });

    test('opened links: unknown 404, dropped 404, expired 410', async () => {
      const user = await started();
      const expiring = local((await create({ UserId: user, Mode: 'view', Hours: 1 })).body.Url);
      const dropped = local((await create({ UserId: user, Mode: 'view', Hours: 5 })).body.Url);
      assert.equal((await server.client.get('/share/unknown-code')).status, 404);
      const start = now;
      try {
        now = start + HOUR;
        const expired = await server.client.get(expiring);
        assert.equal(expired.status, 410);
        assert.equal(expired.body.Code, 'SHARE_EXPIRED');
        assert.equal((await server.client.get(dropped)).status, 200);
        await server.client.post('/custom/state', { userid: user, state: 'handover', mode: 'dropshares' }, { token: tenant.botToken });
        const gone = await server.client.get(dropped);
        assert.equal(gone.status, 404);
        assert.equal(gone.body.Code, 'SHARE_NOT_FOUND');
      } finally {
        now = start;
      }
    });
  });
}
