// Issue 11 finding 4 in real Chromium: an operator signed in to the console visits a page on
// another port of the same host (same-site, so SameSite=Strict cookies are sent), which posts a
// ban with a no-cors fetch carrying credentials. The server must refuse it and change nothing.
// Issue 22 finding 4: the same with the path spelled `/console/%61pi/...`, which the router
// decodes to the console route but a guard matching the URL as sent did not recognise.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, serveSite, type SiteServer } from '../support/browser.js';
import { addOperator, botIdOf } from '../support/console-kit.js';
import { signInWithForm } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('cross-site request forgery against the console (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let site: SiteServer | null = null;

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client);
    await addOperator(server.client, tenant.accountId, 'ann@example.org', 'a long password', 'Ann');
    browser = await launchChromium();
  });
  after(async () => {
    await site?.close();
    await browser?.close();
    await server?.close();
  });

  /** A console page signed in as Ann. */
  async function signedInPage() {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(10_000);
    await signInWithForm(page, server, 'ann@example.org', 'a long password');
    return page;
  }

  /** Sends the signed-in page to a page of another port that POSTs to `url` (no-cors, with credentials). */
  async function visitForger(page: Page, url: string) {
    await site?.close();
    site = await serveSite(`<!doctype html><title>evil</title><script>
      window.attack = fetch(${JSON.stringify(url)}, { method: 'POST', mode: 'no-cors', credentials: 'include' })
        .then(() => 'sent', (e) => 'failed: ' + e);
    </script>`);
    await page.goto(site.url);
    assert.equal(await page.evaluate(() => (window as any).attack), 'sent');
  }

  test('a no-cors POST from another port of the same host does not ban; the console itself still can', async () => {
    const user = 'csrf-victim';
    assert.equal((await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken })).status, 200);
    const botId = await botIdOf(server, tenant.botKey);
    const banUrl = `${server.url}/console/api/conversations/${botId}/${user}/ban`;

    const page = await signedInPage();
    await visitForger(page, banUrl);
    const state = await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken });
    assert.equal(state.status, 200);
    assert.equal(state.body.State, 0, 'the forged ban did not happen');

    // the console page, same origin, still changes state
    await page.goto(`${server.url}/console`);
    const result = await page.evaluate(async (url) => {
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      return [res.status, (await res.json()).State];
    }, banUrl);
    assert.deepEqual(result, [200, 3]);
  });

  test('a no-cors forget posted to /console/%61pi/... from another port is refused; the conversation is still there', async () => {
    const user = 'csrf-encoded';
    assert.equal((await server.client.post('/custom/chat', { UserId: user }, { token: tenant.botToken })).status, 200);
    const botId = await botIdOf(server, tenant.botKey);
    const forgetUrl = `${server.url}/console/%61pi/conversations/${botId}/${user}/forget`;

    const page = await signedInPage();
    await visitForger(page, forgetUrl);
    const state = await server.client.get(`/custom/state?userid=${user}`, { token: tenant.botToken });
    assert.equal(state.status, 200, `the conversation still exists: ${state.text}`);
    assert.equal(state.body.UserId, user);

    // the same spelling from the console's own origin reaches the forget route
    await page.goto(`${server.url}/console`);
    const status = await page.evaluate(async (url) => (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, forgetUrl);
    assert.ok(status === 200 || status === 202, `forgotten from the console itself: ${status}`);
  });
});
