// Every console page is the one page head (ui/shared/page.html) around its own body (issue 38):
// each answers with its title, its stylesheet and its script, once, no placeholder left unfilled;
// the pages whose links console-nav.ts draws have the one header and its styles; and what the head
// names is there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PAGES = [
  { url: '/console', title: 'Colloquy operator console', css: '/console/assets/console.css', script: '<script type="module" src="/console/assets/console.js">', header: false },
  { url: '/console/analytics', title: 'Analytics — Colloquy', css: '/console/analytics/app.css', script: '<script defer src="/console/analytics/app.js">', header: true },
  { url: '/console/knowledge', title: 'Knowledge — Colloquy', css: '/console/knowledge/app.css', script: '<script defer src="/console/knowledge/app.js">', header: true },
  { url: '/console/broadcasts', title: 'Broadcasts — Colloquy', css: '/console/broadcasts/app.css', script: '<script defer src="/console/broadcasts/app.js">', header: true },
  { url: '/console/team', title: 'Team — Colloquy', css: '/console/team/app.css', script: '<script defer src="/console/team/app.js">', header: true },
  { url: '/console/designer', title: 'Designer — Colloquy', css: '/console/designer/assets/main.css', script: '<script type="module" src="/console/designer/assets/main.js">', header: false },
];
const count = (text: string, part: string) => text.split(part).length - 1;

for (const kind of databaseKinds()) {
  describe(`console pages: one head around each page's body (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(() => server.close());

    for (const page of PAGES) {
      test(`${page.url}: its title, stylesheet and script once, in the one head`, async () => {
        const res = await fetch(server.url + page.url);
        assert.equal(res.status, 200);
        const html = await res.text();
        assert.ok(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n'), html.slice(0, 80));
        assert.ok(html.trimEnd().endsWith('</body>\n</html>'), html.slice(-40));
        assert.equal(count(html, '<head>'), 1);
        assert.equal(count(html, '<body'), 1);
        assert.equal(count(html, '<meta name="referrer" content="no-referrer">'), 1);
        assert.equal(count(html, `<title>${page.title}</title>`), 1);
        assert.equal(count(html, `<link rel="stylesheet" href="${page.css}">`), 1);
        assert.equal(count(html, `${page.script}</script>`), 1);
        // (a page may show {{variable}} as text: the broadcasts page explains templates)
        assert.doesNotMatch(html, /\{\{(title|css|script|body|console-header|subtitle|mode|code)\}\}/);
        const folder = page.url.split('/')[2];
        assert.equal(count(html, `<h1>Colloquy <span class="subtitle">${folder}</span></h1>\n    <nav aria-label="Console" id="console-nav"></nav>`), page.header ? 1 : 0);
        const css = await fetch(server.url + page.css);
        assert.equal(css.status, 200, page.css);
        assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
        // the pages with the one header have its styles once, before their own (ui/shared/console-page.css)
        const styles = await css.text();
        assert.equal(count(styles, '.top > nav { margin-left: auto; }'), page.header ? 1 : 0);
        if (page.header) assert.ok(styles.indexOf('.top > nav') < styles.indexOf('main {'), 'shared first');
      });
    }

    test('the console page is filled in for its mode', async () => {
      const html = await (await fetch(`${server.url}/console`)).text();
      assert.equal(count(html, '<body data-mode="console" data-code="">'), 1);
    });
  });
}
