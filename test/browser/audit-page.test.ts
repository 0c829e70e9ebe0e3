// The Audit page (/console/audit, governance.md "Audit log") in Debian's Chromium: an admin sees
// the account's entries newest first, filters them by action and actor, pages back through the
// cursor, and the CSV link carries the filters; keyboard alone does it; a designer is told the log
// is for admins. Desktop and phone: no sideways scrolling, no serious axe-core violation.
// Screenshots: /work/shots/gov/audit-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator, botIdOf, consoleClient, login, signIn } from '../support/console-kit.js';
import { SIZES, type Size, signedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { chatOk } from '../support/chat-kit.js';

const SHOTS = '/work/shots/gov';

describe('the Audit page (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client);
    const botId = await botIdOf(server, tenant.botKey);
    await addOperator(server.client, tenant.accountId, 'ann@example.org');
    await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Designer', 'designer');
    await addOperator(server.client, tenant.accountId, 'al@example.org', undefined, 'Al Agent', 'agent');
    // a morning's work: a failed sign-in, takeovers and hand-backs, a publish
    await login(server.client, { Email: 'ann@example.org', Password: 'not the password' });
    const ann = consoleClient(server.client, await signIn(server.client, 'ann@example.org'));
    for (const user of ['u1', 'u2', 'u3']) {
      await chatOk(server, tenant.botToken, { UserId: user, Text: 'hello' });
      assert.equal((await ann.post(`${ann.conversationPath(botId, user)}/takeover`)).status, 200);
      assert.equal((await ann.post(`${ann.conversationPath(botId, user)}/handover`, { Mode: '*' })).status, 200);
    }
    assert.equal((await server.client.post(`/bots/${tenant.botKey}/publish`, {}, { token: tenant.accountToken })).status, 200);
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page at `size` signed in as `email` (the admin by default) that may download the CSV and the export. */
  const pageAt = (size: Size, email = 'ann@example.org') => signedInPage(browser, server, email, size, { context: { acceptDownloads: true } });
  const rowActions = (page: import('playwright-core').Page) => page.locator('#rows tr td:nth-child(3)').allTextContents();

  test('newest first, filters, older entries, the CSV link; desktop and phone', async () => {
    for (const size of SIZES) {
      const { page, errors } = await pageAt(size);
      await page.goto(`${server.url}/console/audit`);
      await page.locator('#rows tr').first().waitFor();
      const actions = await rowActions(page);
      // newest first: this page's own sign-in (and the one before, on the phone), then the publish
      assert.equal(actions[0], 'signin');
      assert.equal(
        actions.find((a) => a !== 'signin'),
        'bot.publish',
      );
      assert.ok(actions.includes('signin.failed') && actions.includes('conversation.takeover'), actions.join());
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, `${size.name}: no sideways scrolling`);
      await page.screenshot({ path: `${SHOTS}/audit-${size.name}.png`, fullPage: true });
      assert.deepEqual(await seriousViolations(page), [], size.name);

      await page.getByLabel('Action (exactly)').fill('conversation.takeover');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForFunction(() => document.querySelectorAll('#rows tr').length === 3);
      assert.deepEqual(await rowActions(page), ['conversation.takeover', 'conversation.takeover', 'conversation.takeover']);
      assert.equal(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'), '/console/api/audit.csv?action=conversation.takeover');
      await page.screenshot({ path: `${SHOTS}/audit-filtered-${size.name}.png`, fullPage: true });
      assert.deepEqual(errors, [], size.name);
      await page.context().close();
    }
  });

  test('by keyboard: filter by who, and the CSV downloads with the same filter', async () => {
    const { page, errors } = await pageAt(SIZES[0]);
    await page.goto(`${server.url}/console/audit`);
    await page.locator('#rows tr').first().waitFor();
    await page.getByLabel('Who (exactly)').focus();
    await page.keyboard.type('ann@example.org');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('#rows tr td:nth-child(2)')].every((td) => td.textContent?.startsWith('ann@example.org')));
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).focus();
    await page.keyboard.press('Enter');
    const file = await (await download).path();
    const csv = fs.readFileSync(file!, 'utf8');
    assert.match(csv, /^"At","Actor","ActorKind","Action","Target","Ip","Details"\r\n/);
    assert.ok(
      csv
        .split('\r\n')
        .slice(1, -1)
        .every((line) => line.split(',')[1] === '"ann@example.org"'),
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('the cursor: older entries page in', async () => {
    const { page } = await pageAt(SIZES[0]);
    const all = (await server.client.get('/account/audit?limit=500', { token: tenant.accountToken })).body.Result.length;
    await page.goto(`${server.url}/console/audit`);
    await page.locator('#rows tr').first().waitFor();
    // fewer than a page of 50 here: no button for older entries
    assert.equal(await page.locator('#rows tr').count(), Math.min(all, 50));
    assert.equal(await page.getByRole('button', { name: 'Show older entries' }).isVisible(), all > 50);
    await page.context().close();
  });

  test("the contact panel's 'Export this contact's data' downloads the export, for admins only; by keyboard", async () => {
    for (const size of SIZES) {
      const { page, errors } = await pageAt(size);
      await page.goto(`${server.url}/console`);
      await page
        .getByRole('navigation', { name: /^Conversations/ })
        .getByRole('button', { name: /u2/ })
        .click();
      if (size.name === 'phone') {
        await page.locator('#more-menu > summary').click();
        await page.getByRole('button', { name: 'Contact and notes' }).click();
      }
      const control = page.getByRole('link', { name: "Export this contact's data" });
      await control.waitFor();
      await page.screenshot({ path: `${SHOTS}/contact-export-${size.name}.png` });
      assert.deepEqual(await seriousViolations(page), [], size.name);
      const download = page.waitForEvent('download');
      await control.focus();
      await page.keyboard.press('Enter');
      const saved = await download;
      assert.match(saved.suggestedFilename(), /^conversation-\d{4}-\d{2}-\d{2}\.json$/);
      const doc = JSON.parse(fs.readFileSync((await saved.path())!, 'utf8'));
      assert.equal(doc.UserId, 'u2');
      assert.ok(JSON.stringify(doc.History).includes('hello'));
      assert.deepEqual(errors, [], size.name);
      await page.context().close();
    }
    const agent = await pageAt(SIZES[0], 'al@example.org');
    await agent.page.goto(`${server.url}/console`);
    await agent.page
      .getByRole('navigation', { name: /^Conversations/ })
      .getByRole('button', { name: /u2/ })
      .click();
    await agent.page.locator('#contact-body dl').first().waitFor();
    assert.equal(await agent.page.getByRole('link', { name: "Export this contact's data" }).count(), 0, 'an agent is not offered it');
    await agent.page.context().close();
  });

  test('a designer is told the audit log is for admins, and gets no Audit link', async () => {
    const { page } = await pageAt(SIZES[0], 'dee@example.org');
    await page.goto(`${server.url}/console/audit`);
    await page.getByText("Only the account's admins read the audit log.").waitFor();
    assert.equal(await page.locator('#workspace').isVisible(), false);
    assert.equal(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit' }).count(), 0);
    await page.context().close();
  });
});
