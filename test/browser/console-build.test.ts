// Issue 15, "Build" for the operator console, in real Chromium at 1280×800 and on a 390×844 phone:
// readable names instead of raw ids, search and filters (state, bot, channel), who waits for a
// person and for how long (also in the tab title), unread counts and last activity, a side panel
// with the contact's variables, tags, privacy flags and channel, clickable links in the
// transcript, and a phone layout that shows the list or one conversation.
// Screenshots: test-output/console-build-*.png and /tmp/shots/ui-console-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { addOperator } from '../support/console-kit.js';
import { formSignedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startWeb, webKeyOf } from '../support/web-kit.js';

describe('operator console build items of issue 15 (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let tenant: Tenant;
  let page: Page;
  const maria = uid('maria');
  const waiting = uid('waiting');
  const quiet = uid('quiet');
  let webUser = '';
  const shots: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client);
    await addOperator(server.client, tenant.accountId, 'ann@example.org', 'a long password', 'Ann');
    await chatOk(server, tenant.botToken, { UserId: maria, Variables: { first_name: 'María', last_name: 'López', plan: 'gold' }, Tags: ['vip'], Text: 'Track https://example.org/track?id=7 please' });
    await chatOk(server, tenant.botToken, { UserId: quiet, Text: 'hello' });
    webUser = (await startWeb(server.client, await webKeyOf(server.client, tenant))).UserId;
    browser = await launchChromium();
    fs.mkdirSync('/tmp/shots', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  async function signIn(width: number, height: number): Promise<Page> {
    return formSignedInPage(browser, server, 'ann@example.org', 'a long password', { width, height }, pageErrors);
  }
  const shot = async (name: string) => {
    shots.push(await screenshot(page, `console-build-${name}`));
    await page.screenshot({ path: `/tmp/shots/ui-console-${name}.png` });
  };
  const list = () => page.getByRole('navigation', { name: /^Conversations/ });
  const entries = () => list().getByRole('button');
  const entry = (text: string | RegExp) => list().getByRole('button', { name: text });
  const titles = () => list().locator('.conversation-user').allTextContents();

  test('desktop: a readable name instead of the raw id, with the id beside it', async () => {
    page = await signIn(1280, 800);
    await entry(/María López/).waitFor();
    assert.equal(
      await entry(/María López/)
        .locator('.conversation-user')
        .textContent(),
      'María López',
    );
    assert.match(
      (await entry(/María López/)
        .locator('.conversation-bot')
        .textContent()) ?? '',
      new RegExp(`^${maria} · `),
    );
    assert.equal(await entry(quiet).locator('.conversation-user').textContent(), quiet, 'without a name, the id');
    assert.match((await entry(quiet).locator('.conversation-time').textContent()) ?? '', /^(just now|\d+ min)$/);
  });

  test('desktop: someone waiting for a person is marked with the time waited, counted in the list and in the tab title', async () => {
    assert.equal(await page.title(), 'Colloquy operator console');
    await chatOk(server, tenant.botToken, { UserId: waiting, Text: 'human' });
    await entry(waiting)
      .getByText(/^Waiting for a person · (just now|\d+ min)$/)
      .waitFor();
    await page.waitForFunction(() => document.title === '(1) Colloquy operator console');
    assert.match((await list().locator('#list-count').textContent()) ?? '', /^4 of 4 · 1 waiting$/);
    await shot('1-list-waiting');
  });

  test('desktop: search and the state, bot and channel filters narrow the list', async () => {
    await page.getByRole('searchbox', { name: /Search/ }).fill('lópez');
    await page.waitForFunction(() => document.querySelectorAll('.conversation-open').length === 1);
    assert.deepEqual(await titles(), ['María López']);
    await page.getByRole('searchbox', { name: /Search/ }).fill(maria);
    assert.deepEqual(await titles(), ['María López'], 'the user id is searched too');
    await page.getByRole('searchbox', { name: /Search/ }).fill('');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Waiting for a person' });
    assert.deepEqual(await titles(), [waiting]);
    await page.getByLabel('State', { exact: true }).selectOption('');
    await page.getByLabel('Channel', { exact: true }).selectOption('web');
    // a generated id is shortened (issue 27 item 18); the full id is in the entry's second line
    assert.deepEqual(await titles(), [`Visitor ${webUser.slice(0, 8)}`]);
    await page.getByLabel('Channel', { exact: true }).selectOption('');
    const bots = await page.getByLabel('Bot', { exact: true }).locator('option').allTextContents();
    assert.deepEqual(bots, ['All bots', 'Support Desk']);
    await page.getByLabel('Bot', { exact: true }).selectOption({ label: 'Support Desk' });
    assert.equal(await entries().count(), 4);
    await page.getByRole('searchbox', { name: /Search/ }).fill('nobody-has-this');
    await page.getByText('No conversation matches.').waitFor();
    await page.getByRole('searchbox', { name: /Search/ }).fill('');
  });

  test('desktop: the side panel shows the contact; links in the transcript can be clicked', async () => {
    await entry(/María López/).click();
    await page.getByRole('heading', { name: 'María López' }).waitFor();
    const contact = page.getByRole('complementary', { name: 'Contact' });
    await contact.waitFor();
    const terms = await contact.locator('.contact-list > dt').allTextContents();
    assert.deepEqual(terms, ['Channel', 'Tags', 'Privacy', 'Variables']);
    assert.equal(await contact.locator('.contact-list > dd').first().textContent(), 'custom');
    assert.deepEqual(await contact.locator('.tag').allTextContents(), ['vip']);
    const variables = await contact.locator('.contact-variables dt').allTextContents();
    for (const name of ['first_name', 'last_name', 'plan']) assert.ok(variables.includes(name), name);
    const link = page.getByRole('list', { name: 'Transcript' }).getByRole('link', { name: 'https://example.org/track?id=7' });
    assert.equal(await link.getAttribute('href'), 'https://example.org/track?id=7');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await link.getAttribute('target'), '_blank');
    await shot('2-contact-panel');
  });

  test('desktop: a message in another conversation counts as unread until it is opened', async () => {
    await chatOk(server, tenant.botToken, { UserId: quiet, Text: 'are you there?' });
    await chatOk(server, tenant.botToken, { UserId: quiet, Text: 'hello again' });
    const unread = entry(quiet).locator('.unread');
    await unread.getByText('2', { exact: true }).waitFor();
    assert.equal(await entry(waiting).locator('.unread').textContent(), '1', "the waiting user's 'human' is unread too");
    assert.equal(await unread.getAttribute('aria-label'), '2 unread');
    assert.equal(
      await entry(/María López/)
        .locator('.unread')
        .count(),
      0,
      'the open conversation has none',
    );
    await shot('3-unread');
    await entry(quiet).click();
    await page.getByRole('heading', { name: quiet }).waitFor();
    assert.equal(await entry(quiet).locator('.unread').count(), 0);
  });

  test('phone: the list alone, then one conversation with a way back; nothing wider than the screen', async () => {
    page = await signIn(390, 844);
    await entry(/María López/).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    assert.equal(await page.locator('#conversation').isVisible(), false);
    await shot('4-phone-list');
    await entry(/María López/).click();
    await page.getByRole('heading', { name: 'María López' }).waitFor();
    assert.equal(await list().isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'conversation-title');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    // the transcript and reply box fill the screen (issue 27 item 4); the contact is one menu away
    assert.equal(await page.getByRole('complementary', { name: 'Contact' }).isVisible(), false);
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Contact and notes' }).click();
    assert.equal(await page.getByRole('complementary', { name: 'Contact' }).isVisible(), true);
    await shot('5-phone-conversation');
    await page.getByRole('button', { name: '← Conversations' }).click();
    await entry(/María López/).waitFor();
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.userId), maria);
    assert.equal(await page.getByRole('button', { name: '← Conversations' }).isVisible(), false);
    assert.deepEqual(pageErrors, []);
  });
});
