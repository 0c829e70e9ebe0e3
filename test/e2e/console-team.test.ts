// Issue 37 item 5: an admin adds teammates from the console. An invitation is a one-time link the
// admin sends; the invited person chooses a password there and signs in; roles change; teammates
// are removed; the account always keeps an admin who can sign in. With SMTP configured the link is
// also e-mailed (a real SMTP server on loopback); SMTP down, hanging or refusing the login leaves
// the invitation as it is without SMTP: 201, the link, Emailed false, and a log line saying why.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { addOperator, consoleClient, signIn } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { hangingSmtp, refusingPort, SMTP_PASSWORD, SmtpDouble } from '../support/smtp-double.js';

const MAIL_FROM = 'Colloquy <no-reply@example.org>';
/** The mail settings config.ts reads from these variables (the tests point a running server at them). */
const mailSettings = (url: string, timeoutSeconds = '5') => loadConfig({ COLLOQUY_SMTP_URL: url, COLLOQUY_MAIL_FROM: MAIL_FROM, COLLOQUY_SMTP_TIMEOUT_SECONDS: timeoutSeconds }).mail;

test('malformed SMTP settings stop the server with a message that names the variable and not the password', () => {
  for (const [env, message] of [
    [{ COLLOQUY_SMTP_URL: 'http://u:hunter2secret@mail.example.org', COLLOQUY_MAIL_FROM: MAIL_FROM }, /^COLLOQUY_SMTP_URL must be smtp:\/\//],
    [{ COLLOQUY_SMTP_URL: 'smtp://u:hunter2secret@', COLLOQUY_MAIL_FROM: MAIL_FROM }, /^COLLOQUY_SMTP_URL must be/],
    [{ COLLOQUY_SMTP_URL: 'smtp://:hunter2secret@mail.example.org', COLLOQUY_MAIL_FROM: MAIL_FROM }, /^COLLOQUY_SMTP_URL has a password but no user$/],
    [{ COLLOQUY_SMTP_URL: 'smtp://u:hunter2secret@mail.example.org' }, /^COLLOQUY_MAIL_FROM must be "Name <address>" or an address/],
    [{ COLLOQUY_SMTP_URL: 'smtps://u:hunter2secret@mail.example.org', COLLOQUY_MAIL_FROM: 'Colloquy <a@b.org>\r\nBcc: x@evil.org' }, /^COLLOQUY_MAIL_FROM must be/],
    [{ COLLOQUY_SMTP_URL: 'smtp://mail.example.org', COLLOQUY_MAIL_FROM: MAIL_FROM, COLLOQUY_SMTP_TIMEOUT_SECONDS: '0' }, /^COLLOQUY_SMTP_TIMEOUT_SECONDS must be a number of seconds from 0.1 to 120/],
  ] as const) {
    assert.throws(
      () => loadConfig(env),
      (error: Error) => message.test(error.message) && !error.message.includes('hunter2secret'),
      JSON.stringify(env),
    );
  }
  assert.equal(loadConfig({}).mail, null, 'not set: no e-mail');
  assert.deepEqual(loadConfig({ COLLOQUY_SMTP_URL: 'smtps://mail.example.org:2465', COLLOQUY_MAIL_FROM: 'a@example.org' }).mail, {
    url: 'smtps://mail.example.org:2465',
    from: 'a@example.org',
    timeoutMs: 10_000,
  });
  assert.equal(loadConfig({ COLLOQUY_SMTP_URL: 'smtp://mail.example.org', COLLOQUY_MAIL_FROM: '"Bike Shop, support" <help@example.org>' }).mail?.from, '"Bike Shop, support" <help@example.org>');
});

for (const kind of databaseKinds()) {
  describe(`console team: invite, join, roles, remove (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let other: Tenant;
    let admin: ReturnType<typeof consoleClient>;
    let adminId: string;
    let smtp: SmtpDouble;
    const logged: string[] = [];
    before(async () => {
      smtp = await SmtpDouble.start();
      server = await startTestServer(kind, {}, { log: (line) => logged.push(line) });
      tenant = await createTenant(server.client);
      other = await createTenant(server.client);
      adminId = (await addOperator(server.client, tenant.accountId, 'boss@example.org', undefined, 'Boss', 'admin')).OperatorId;
      await addOperator(server.client, other.accountId, 'zed@example.org', undefined, 'Zed', 'admin');
      admin = consoleClient(server.client, await signIn(server.client, 'boss@example.org'));
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const cookie = (c: ReturnType<typeof consoleClient>) => ({ headers: { cookie: c.cookie } });
    const tokenOf = (url: string) => new URL(url).hash.replace('#invite=', '');
    const login = (email: string, password: string) => server.client.post('/console/api/login', { Email: email, Password: password });

    test('an invited teammate joins through the link once, then signs in with the role given', async () => {
      const invite = await admin.post('/team', { Email: 'Ann@Example.org', Name: 'Ann', Role: 'agent' });
      assert.equal(invite.status, 201, invite.text);
      assert.deepEqual({ ...invite.body.Teammate, OperatorId: undefined }, { OperatorId: undefined, Email: 'ann@example.org', Name: 'Ann', Role: 'agent', Invited: true });
      assert.match(invite.body.InviteUrl, new RegExp(`^${server.url}/console/team#invite=[A-Za-z0-9_-]{43}$`));
      assert.equal(invite.body.ExpiresInDays, 7);
      assert.equal(invite.body.Emailed, false, 'no SMTP configured: the admin sends the link');
      assert.deepEqual(smtp.mails, []);
      assert.equal((await login('ann@example.org', 'invited')).status, 401, 'no password works before joining');
      const token = tokenOf(invite.body.InviteUrl);
      const joined = await server.client.post('/console/api/team/join', { Token: token, Password: 'a brand new secret' });
      assert.equal(joined.status, 200, joined.text);
      assert.deepEqual(joined.body, { Email: 'ann@example.org' });
      const again = await server.client.post('/console/api/team/join', { Token: token, Password: 'another secret!' });
      assert.equal(again.status, 400);
      assert.equal(again.body.Code, 'INVITE_INVALID');
      const ann = consoleClient(server.client, await signIn(server.client, 'ann@example.org', 'a brand new secret'));
      const team = await ann.get('/team');
      assert.equal(team.status, 200, team.text);
      assert.deepEqual(
        team.body.Teammates.map((t: any) => [t.Email, t.Role, t.Invited]),
        [
          ['ann@example.org', 'agent', false],
          ['boss@example.org', 'admin', false],
        ],
      );
      const refused = await ann.post('/team', { Email: 'x@example.org', Role: 'admin' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.Code, 'ROLE_FORBIDDEN');
    });

    test('roles change, a new link replaces the old, teammates are removed; the last admin stays', async () => {
      const invite = (await admin.post('/team', { Email: 'dee@example.org', Role: 'designer' })).body;
      const id = invite.Teammate.OperatorId;
      const fresh = await admin.post(`/team/${id}/invite`);
      assert.equal(fresh.status, 200, fresh.text);
      const old = await server.client.post('/console/api/team/join', { Token: tokenOf(invite.InviteUrl), Password: 'a brand new secret' });
      assert.equal(old.body.Code, 'INVITE_INVALID', 'the old link stopped working');
      const promoted = await server.client.patch(`/console/api/team/${id}`, { Role: 'admin' }, cookie(admin));
      assert.equal(promoted.status, 200, promoted.text);
      assert.equal(promoted.body.Role, 'admin');
      const demoteMe = await server.client.patch(`/console/api/team/${adminId}`, { Role: 'agent' }, cookie(admin));
      assert.equal(demoteMe.status, 409, 'Dee has not joined: she cannot sign in, so Boss is the last admin who can');
      assert.equal(demoteMe.body.Code, 'CONFLICT');
      const self = await server.client.delete(`/console/api/team/${adminId}`, cookie(admin));
      assert.equal(self.status, 409);
      const removed = await server.client.delete(`/console/api/team/${id}`, cookie(admin));
      assert.deepEqual([removed.status, removed.body], [200, { OperatorId: id, Removed: true }]);
      const joinRemoved = await server.client.post('/console/api/team/join', { Token: tokenOf(fresh.body.InviteUrl), Password: 'a brand new secret' });
      assert.equal(joinRemoved.body.Code, 'INVITE_INVALID', 'a removed teammate’s link is gone with them');
      assert.equal(
        (await admin.get('/team')).body.Teammates.some((t: any) => t.Email === 'dee@example.org'),
        false,
      );
    });

    test('bad input and another account’s operators are refused with a Code and change nothing', async () => {
      const before = (await admin.get('/team')).body.Teammates;
      for (const body of [{}, { Email: 'not an address', Role: 'agent' }, { Email: 'a@example.org', Role: 'owner' }, { Email: 'boss@example.org', Role: 'agent' }]) {
        const res = await admin.post('/team', body);
        assert.ok([400, 409].includes(res.status), `${JSON.stringify(body)} → ${res.status}`);
        assert.equal(typeof res.body.Code, 'string');
      }
      const zed = (await server.running.store.operators.byEmail(other.accountId, 'zed@example.org'))!;
      for (const res of [await server.client.patch(`/console/api/team/${zed.id}`, { Role: 'agent' }, cookie(admin)), await server.client.delete(`/console/api/team/${zed.id}`, cookie(admin))]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.Code, 'OPERATOR_NOT_FOUND');
      }
      for (const body of [
        { Token: 'x'.repeat(43), Password: 'long enough pw' },
        { Token: 'short', Password: 'long enough pw' },
        { Token: 'x'.repeat(43), Password: 'short' },
      ]) {
        const res = await server.client.post('/console/api/team/join', body);
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      assert.deepEqual((await admin.get('/team')).body.Teammates, before);
      assert.equal((await server.running.store.operators.byId(zed.id))!.role, 'admin');
    });

    test('with SMTP configured the link is e-mailed once, in plain words, and the e-mailed link sets the password', async () => {
      server.running.services.config.mail = mailSettings(smtp.url());
      try {
        const invite = await admin.post('/team', { Email: 'Eve@Example.org', Name: 'Eve', Role: 'designer' });
        assert.equal(invite.status, 201, invite.text);
        assert.equal(invite.body.Emailed, true);
        const mail = await smtp.mailTo('eve@example.org');
        assert.equal(mail.headers.from, MAIL_FROM);
        assert.equal(mail.headers.to, 'eve@example.org');
        const account = (await server.running.store.accounts.byId(tenant.accountId))!.name;
        assert.equal(mail.headers.subject, `Boss invited you to ${account} on Colloquy`);
        const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
        assert.match(mail.text, /^Hello Eve,\n\nBoss \(boss@example.org\) invited you to the team of .+ on Colloquy, as designer, with this e-mail address: eve@example.org\.\n/);
        const mailedLink = mail.text.match(/^(http\S+#invite=\S+)$/m)?.[1];
        assert.equal(mailedLink, invite.body.InviteUrl, mail.text);
        assert.match(mail.text, new RegExp(`The link expires on ${expires} \\d\\d:\\d\\d UTC\\.`));
        const joined = await server.client.post('/console/api/team/join', { Token: tokenOf(mailedLink!), Password: 'eve chose this one' });
        assert.deepEqual([joined.status, joined.body], [200, { Email: 'eve@example.org' }]);
        assert.equal(typeof (await signIn(server.client, 'eve@example.org', 'eve chose this one')), 'string');
        const retried = await admin.post('/team', { Email: 'eve@example.org', Name: 'Eve', Role: 'designer' });
        assert.equal(retried.status, 409, 'a retried invitation is refused');
        const fresh = await admin.post(`/team/${(await admin.post('/team', { Email: 'fay@example.org', Role: 'agent' })).body.Teammate.OperatorId}/invite`);
        assert.equal(fresh.body.Emailed, true);
        await smtp.mailTo('fay@example.org');
        assert.deepEqual(
          smtp.mails.map((m) => m.to.join()),
          ['eve@example.org', 'fay@example.org', 'fay@example.org'],
          'one e-mail per link: none for the retry',
        );
        assert.ok(smtp.mails[2].text.includes(fresh.body.InviteUrl), 'the new link is the one e-mailed');
        assert.equal(
          logged.some((line) => line.includes(SMTP_PASSWORD)),
          false,
        );
      } finally {
        server.running.services.config.mail = null;
      }
    });

    test('SMTP refused, hanging or refusing the login: 201 with the link, Emailed false, the link works, a log line says why', async () => {
      const hanging = await hangingSmtp();
      const cases = [
        { who: 'down', url: `smtp://colloquy:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${await refusingPort()}`, why: /ECONNREFUSED/ },
        { who: 'hang', url: `smtp://127.0.0.1:${hanging.port}`, why: /did not accept the message within 0\.5 s/ },
        { who: 'login', url: smtp.url('the wrong password'), why: /535|Invalid login/ },
      ];
      try {
        for (const { who, url, why } of cases) {
          server.running.services.config.mail = mailSettings(url, '0.5');
          const started = Date.now();
          const invite = await admin.post('/team', { Email: `${who}@example.org`, Role: 'agent' });
          assert.equal(invite.status, 201, `${who}: ${invite.text}`);
          assert.ok(Date.now() - started < 4000, `${who}: answered after ${Date.now() - started} ms`);
          assert.equal(invite.body.Emailed, false, who);
          const line = logged.find((l) => l.startsWith(`invitation e-mail for operator ${invite.body.Teammate.OperatorId} not sent`));
          assert.ok(line && why.test(line), `${who}: ${line}`);
          const joined = await server.client.post('/console/api/team/join', { Token: tokenOf(invite.body.InviteUrl), Password: 'a brand new secret' });
          assert.equal(joined.status, 200, `${who}: nothing lost, the link works`);
        }
        assert.deepEqual(smtp.refusedLogins, ['colloquy']);
        assert.equal(
          logged.some((l) => l.includes(SMTP_PASSWORD) || l.includes('the wrong password') || l.includes(encodeURIComponent('the wrong password'))),
          false,
          'no password in the log',
        );
      } finally {
        server.running.services.config.mail = null;
        await hanging.close();
      }
    });

    test('a name with a line break is refused before anything is stored or sent', async () => {
      server.running.services.config.mail = mailSettings(smtp.url());
      try {
        const sent = smtp.mails.length;
        for (const Name of ['Mallory\r\nBcc: victim@example.org', 'Mallory\nX']) {
          const res = await admin.post('/team', { Email: 'mallory@example.org', Name, Role: 'agent' });
          assert.deepEqual([res.status, res.body.Code], [400, 'INVALID_REQUEST']);
        }
        assert.equal(await server.running.store.operators.byEmail(tenant.accountId, 'mallory@example.org'), null);
        assert.equal(smtp.mails.length, sent);
      } finally {
        server.running.services.config.mail = null;
      }
    });
  });
}
