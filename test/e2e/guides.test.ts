// The guides under /docs/guides (issue 27 item 13): every docs/*.md listed and served as a page
// with the console's CSP; a name that is no guide is NOT_FOUND, and no path reaches another file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

describe('guides', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  test('the list names every docs/*.md by its title, and each is a page', async () => {
    const files = fs
      .readdirSync(new URL('../../docs/', import.meta.url))
      .filter((f) => f.endsWith('.md'))
      .sort();
    const list = await fetch(`${server.url}/docs/guides`);
    assert.equal(list.status, 200);
    assert.match(list.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    const html = await list.text();
    assert.deepEqual(
      [...html.matchAll(/href="\/docs\/guides\/([a-z0-9-]+)"/g)].map((m) => `${m[1]}.md`),
      files,
    );
    assert.match(html, /<a href="\/docs\/guides\/errors">Error catalogue<\/a>/);
    const page = await fetch(`${server.url}/docs/guides/limits`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<h1 id="[^"]+">Limits and forgetting<\/h1>/);
  });

  test('no other file is served: unknown names and paths are NOT_FOUND', async () => {
    for (const path of ['/docs/guides/nope', '/docs/guides/..%2Fpackage', '/docs/guides/README', '/docs/guides/analytics.md']) {
      const res = await server.client.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.Code, 'NOT_FOUND', path);
    }
  });
});
