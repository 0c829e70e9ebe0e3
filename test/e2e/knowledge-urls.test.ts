// knowledge.md "Sources": `{Url, Name?}` sources, fetched once (http(s) only, through callApi's
// private-network guard, no redirects, capped at the source limit), read by their Content-Type
// like uploads; a cited Url source becomes a link button after the answer.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { botFile, chatOk, goTo, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { pdfFile } from '../support/knowledge-files.js';
import { base, search, sourceIds } from '../support/knowledge-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;

/** A site of the tests' own: each path a page of a type, a status, a redirect or an endless body. */
async function startSite(): Promise<{ url: string; hits: Map<string, number>; close(): Promise<void> }> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'content-type': type }).end(body);
    if (path === '/pets.html') return send('text/html; charset=utf-8', '<html><body><nav>Menu</nav><h1>Pets</h1><p>Hamsters travel in the cabin for free.</p><script>evil()</script></body></html>');
    if (path === '/notes.txt') return send('text/plain', 'Lockers at the station cost 3 euros a day.');
    if (path === '/menu.pdf') return send('application/pdf', pdfFile([['The canteen serves pancakes on Fridays.']]));
    if (path === '/logo.png') return send('image/png', Buffer.from('\x89PNG'));
    if (path === '/moved') return res.writeHead(301, { location: '/pets.html' }).end();
    if (path === '/huge.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(MiB, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 12 && res.write(chunk)) sent++;
        if (sent >= 12) res.end();
        else res.once('drain', pump);
      };
      return pump();
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const citingBot = () =>
  botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      { name: 'Ask', actions: [{ type: 'knowledge' }] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    { triggers: [{ match: { regex: '^q:' }, actions: [goTo('Main', 'Ask')] }] },
  );

for (const kind of databaseKinds()) {
  describe(`knowledge Url sources (${kind})`, () => {
    let site: Awaited<ReturnType<typeof startSite>>;
    let server: TestServer;
    let guarded: TestServer;
    let tenant: Tenant;
    before(async () => {
      site = await startSite();
      server = await startTestServer(kind);
      guarded = await startTestServer(kind, { COLLOQUY_ALLOW_PRIVATE_NETWORK: '0' });
      tenant = await createTenant(server.client, citingBot());
    });
    after(async () => {
      await server.close();
      await guarded.close();
      await site.close();
    });
    const post = (body: unknown, t = tenant, s = server) => s.client.post(base(t), body, { token: t.accountToken });

    test('an HTML page is fetched once, reduced like Html, named by its address unless Name is given', async () => {
      const res = await post({ Url: `${site.url}/pets.html` });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.Kind, 'url');
      assert.equal(res.body.Url, `${site.url}/pets.html`);
      assert.equal(res.body.Name, `${site.url}/pets.html`);
      const one = await server.client.get(`${base(tenant)}/${res.body.SourceId}`, { token: tenant.accountToken });
      assert.deepEqual(
        one.body.Passages.map((p: any) => [p.Heading, p.Text]),
        [['Pets', 'Hamsters travel in the cabin for free.']],
      );
      await search(server, tenant, 'hamsters');
      await search(server, tenant, 'hamsters');
      assert.equal(site.hits.get('/pets.html'), 1, 'searching never fetches again');
    });

    test('plain text and PDF pages are read by their Content-Type', async () => {
      const txt = await post({ Url: `${site.url}/notes.txt`, Name: 'Station notes' });
      assert.equal(txt.status, 201, txt.text);
      assert.equal(txt.body.Name, 'Station notes');
      const pdf = await post({ Url: `${site.url}/menu.pdf`, Name: 'Canteen' });
      assert.equal(pdf.status, 201, pdf.text);
      assert.equal((await search(server, tenant, 'lockers'))[0].SourceId, txt.body.SourceId);
      assert.equal((await search(server, tenant, 'pancakes'))[0].SourceId, pdf.body.SourceId);
    });

    test('a cited Url source is a link button after the answer', async () => {
      const user = `u-${Date.now()}`;
      await chatOk(server, tenant.botToken, { UserId: user });
      const reply = await chatOk(server, tenant.botToken, { UserId: user, Text: 'q: do hamsters travel in the cabin?' });
      assert.equal(reply.Parts.length, 1, JSON.stringify(reply.Parts));
      const [part] = reply.Parts;
      assert.equal(part.Type, 13);
      assert.equal(part.Text, 'Hamsters travel in the cabin for free.');
      // the source is named by its address; no "Sources:" line repeats it
      assert.deepEqual(
        part.Parts.map((p: any) => [p.Type, p.Text, p.Url]),
        [[17, `${site.url}/pets.html`, `${site.url}/pets.html`]],
      );
    });

    test('bad addresses and pages are refused and nothing changes', async () => {
      const before = await sourceIds(server, tenant);
      const cases: Array<[string, () => Promise<any>, number, string, RegExp?]> = [
        ['another scheme', () => post({ Url: 'file:///etc/passwd' }), 400, 'INVALID_REQUEST'],
        ['not an address', () => post({ Url: 'pets.html' }), 400, 'INVALID_REQUEST'],
        ['Url and Text', () => post({ Url: `${site.url}/notes.txt`, Text: 'x', Name: 'x' }), 400, 'INVALID_REQUEST'],
        ['a 404', () => post({ Url: `${site.url}/missing` }), 400, 'INVALID_DOCUMENT', /answered 404/],
        ['a redirect', () => post({ Url: `${site.url}/moved` }), 400, 'INVALID_DOCUMENT', /redirect/],
        ['an image', () => post({ Url: `${site.url}/logo.png` }), 400, 'INVALID_DOCUMENT', /image\/png/],
        ['over 10 MiB', () => post({ Url: `${site.url}/huge.txt` }), 413, 'PAYLOAD_TOO_LARGE'],
        ['nobody listening', () => post({ Url: 'http://127.0.0.1:1/x' }), 400, 'INVALID_DOCUMENT', /could not be fetched/],
      ];
      for (const [name, call, status, code, message] of cases) {
        const res = await call();
        assert.equal(res.status, status, `${name}: ${String(res.text).slice(0, 200)}`);
        assert.equal(res.body.Code, code, name);
        if (message) assert.match(res.body.Message, message, name);
      }
      assert.deepEqual(await sourceIds(server, tenant), before);
    });

    test('the private-network guard: a loopback address is refused unless the operator allows it', async () => {
      const owner = await createTenant(guarded.client);
      for (const url of [`${site.url}/pets.html`, `http://localhost:${new URL(site.url).port}/pets.html`]) {
        const res = await post({ Url: url }, owner, guarded);
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.Code, 'INVALID_DOCUMENT');
        assert.match(res.body.Message, /not a public one/);
      }
      assert.deepEqual(await sourceIds(guarded, owner), []);
    });
  });
}
