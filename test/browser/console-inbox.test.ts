// Issue 27, the console as an inbox, in real Chromium at 1280×800 and 390×844: items 2, 3, 4, 5,
// 7, 11, 15, 17 and 18 of "Found when tried" (each fails on the console before the issue; 3, 5, 7
// and 15 at both sizes, 4 on a phone, the others on a desktop), resolve
// and snooze, transfer to a team, and the keyboard-only walk-through of an operator's day.
// Screenshots: /work/shots/console-*.png (and test-output/console-inbox-*.png).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { launchChromium, servePictures } from '../support/browser.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { botToken } from '../support/fixtures.js';
import { consoleClient, signIn as signInApi } from '../support/console-kit.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = '/work/shots';
const VISITOR = '38e1509b-5f1c-4c1e-9a57-1b2f3c4d5e01';

describe('operator console as an inbox, issue 27 (Chromium)', () => {
  let database: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let keys: DemoKeys;
  let token: string;
  const reader = uid('reader');
  const waiter = uid('waiter');
  const pageErrors: string[] = [];

  before(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServerOn(database, {});
    keys = (await seedDemo(server.running.services))!;
    token = await botToken(server.client, keys.accountKey, keys.botKey, keys.botSecret);
    // A long conversation with contact variables, an operator's markdown, and a rare word early on.
    await chatOk(server, token, { UserId: reader, Text: 'my zeppelin order is late', Variables: [{ Name: 'city', Value: 'Amsterdam Centraal Station' }] });
    for (let i = 1; i <= 12; i++) await chatOk(server, token, { UserId: reader, Text: `question number ${i} about shipping and returns` });
    await chatOk(server, token, { UserId: reader, Text: '**Hello** from support <img src=x onerror="window.__hacked=1">' }, { DIRECTION: 'OPERATOR' });
    await chatOk(server, token, { UserId: VISITOR, Text: 'hello' });
    await chatOk(server, token, { UserId: waiter, Text: 'human' });
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await database?.drop();
  });

  async function signIn(width: number, height: number): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await servePictures(page);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('E-mail', { exact: true }).fill(keys.operatorEmail);
    await page.getByLabel('Password', { exact: true }).fill(keys.operatorPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.conversation-open').first().waitFor();
    return page;
  }
  const list = (page: Page) => page.getByRole('navigation', { name: /^Conversations/ });
  const entry = (page: Page, text: string | RegExp) => list(page).getByRole('button', { name: text });
  const open = async (page: Page, user: string) => {
    await entry(page, user).click();
    await page.locator('#conversation-title').filter({ hasText: user }).waitFor();
  };
  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/console-${name}.png` });

  /** Serious and critical axe-core violations on the page as it is now. */
  async function axe(page: Page): Promise<string[]> {
    await page.evaluate(AXE);
    const violations = (await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }).then((r: any) => r.violations))) as any[];
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n: any) => n.target))}`);
  }
  const focusedUser = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.userId ?? document.activeElement?.id ?? null);

  test('item 2: the focused entry keeps the focus when the list redraws (Enter, live events); the list is one Tab stop from Take over', async () => {
    const page = await signIn(1280, 800);
    await entry(page, reader).focus();
    await page.keyboard.press('Enter');
    await page.locator('#conversation-title').filter({ hasText: reader }).waitFor();
    assert.equal(await focusedUser(page), reader, 'Enter keeps the focus on the entry');
    // a live event redraws the list: a new conversation comes first
    const newcomer = uid('newcomer');
    await chatOk(server, token, { UserId: newcomer, Text: 'hello there' });
    await entry(page, newcomer).waitFor();
    assert.equal(await focusedUser(page), reader, 'a live redraw keeps the focus');
    // the list is one Tab stop: arrow keys move in it, Tab leaves it for the conversation's controls
    await page.keyboard.press('ArrowDown');
    assert.notEqual(await focusedUser(page), reader);
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedUser(page), reader);
    await page.keyboard.press('Tab');
    assert.equal(await focusedUser(page), 'takeover', 'one Tab from the list to Take over');
    await page.close();
  });

  test('item 2: shortcuts move between conversations, and ? opens their list', async () => {
    const page = await signIn(1280, 800);
    const titles = await list(page).locator('.conversation-open').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.userId));
    await page.locator('#transcript').waitFor({ state: 'attached' });
    await page.keyboard.press('j');
    await page.locator('#conversation-title').filter({ hasText: titles[0]! }).waitFor();
    await page.keyboard.press('j');
    await page.locator('#conversation-title').filter({ hasText: titles[1]! }).waitFor();
    await page.keyboard.press('k');
    await page.locator('#conversation-title').filter({ hasText: titles[0]! }).waitFor();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const line of ['Next / previous conversation', 'Take over', 'Hand back to the bot', 'Resolve']) await help.getByText(line, { exact: true }).waitFor();
    await shot(page, 'help-desktop');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await page.close();
  });

  test('item 3 and 15: the first opened conversation shows its newest message; the long transcript passes axe (scrollable region focusable)', async () => {
    const page = await signIn(1280, 800);
    await open(page, reader);
    await page.locator('#contact').waitFor();
    const gap = await page.locator('#transcript').evaluate((t) => t.scrollHeight - t.scrollTop - t.clientHeight);
    assert.ok(gap <= 2, `${gap} px short of the newest message`);
    const last = (await page.locator('#transcript > li').last().boundingBox())!;
    const box = (await page.locator('#transcript').boundingBox())!;
    assert.ok(last.y + last.height <= box.y + box.height + 1, 'the newest message is inside the transcript box');
    assert.deepEqual(await axe(page), []);
    await shot(page, 'open-desktop');
    await page.close();
  });

  test('items 4, 3, 7 and 15 on a phone: the reply box at the bottom of the screen, the transcript at its newest message, markdown as the visitor sees it, axe clean', async () => {
    const page = await signIn(390, 844);
    await open(page, reader);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    assert.deepEqual([await transcript.locator('.line-operator strong').first().textContent(), await transcript.locator('img[src="x"]').count()], ['Hello', 0]);
    const form = (await page.locator('#message-form').boundingBox())!;
    assert.ok(form.y + form.height <= 844, `the reply box ends at ${form.y + form.height}`);
    assert.ok(form.y + form.height >= 844 - 120, `the reply box ends at ${form.y + form.height}, far above the bottom`);
    const last = (await page.locator('#transcript > li').last().boundingBox())!;
    assert.ok(last.y >= 0 && last.y + last.height <= form.y, `the newest message at ${last.y}..${last.y + last.height}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), true, 'nothing to scroll past');
    assert.deepEqual(await axe(page), []);
    await shot(page, 'open-phone');
    await page.close();
  });

  for (const [name, width, height] of [['desktop', 1280, 800], ['phone', 390, 844]] as const) {
    test(`item 5, ${name}: search finds a word said in any message (not only the last), and shows the hit`, async () => {
      const page = await signIn(width, height);
      await page.getByRole('searchbox', { name: /Search/ }).fill('zeppel');
      const hit = entry(page, reader).locator('mark');
      await hit.waitFor();
      assert.match((await hit.textContent()) ?? '', /my zeppelin order is late/);
      assert.equal(await hit.isVisible(), true);
      assert.equal(await list(page).locator('.conversation-open').count(), 1);
      await shot(page, `search-${name}`);
      await page.close();
    });
  }

  test('item 7 and 11: markdown as the visitor sees it (no HTML), activity lines, names and clear wording', async () => {
    const page = await signIn(1280, 800);
    await open(page, reader);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    assert.equal(await transcript.locator('.line-operator strong').first().textContent(), 'Hello');
    assert.equal(await transcript.locator('img[src="x"]').count(), 0);
    assert.equal(await page.evaluate(() => (window as any).__hacked), undefined);
    assert.deepEqual(await page.locator('#filter-state option').allTextContents(), ['All states', 'Waiting for a person', 'Taken over', 'With the bot', 'Banned']);
    await open(page, waiter);
    assert.equal(await page.locator('#conversation-state').textContent(), 'Waiting for a person');
    await page.getByRole('button', { name: 'Take over' }).click();
    await page.locator('#conversation-state').getByText('Taken over by Demo operator', { exact: true }).waitFor();
    await transcript.locator('.line-activity').getByText('Demo operator took the conversation over').waitFor();
    assert.match((await page.locator('#status').textContent()) ?? '', new RegExp(`^You took over the conversation with ${waiter}\\.`));
    await page.getByRole('button', { name: 'Hand back to the bot' }).click();
    await transcript.locator('.line-activity').getByText('Demo operator handed it back to the bot').waitFor();
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await transcript.locator('.line-activity').getByText('Demo operator banned the user').waitFor();
    await shot(page, 'activity-desktop');
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Unban', exact: true }).click();
    await page.locator('#status').getByText(`${waiter} can write again.`).waitFor();
    await page.close();
  });

  test('item 17 and 18: contact values wrap by words, focus rings inside the list, a compact toolbar, a name instead of a UUID', async () => {
    const page = await signIn(1280, 800);
    await open(page, reader);
    const value = page.locator('#contact dd').filter({ hasText: /^Amsterdam Centraal Station$/ });
    const box = (await value.boundingBox())!;
    assert.ok(box.width >= 150, `the value is ${box.width} px wide`);
    assert.ok(box.height <= 50, `the value is ${box.height} px high`);
    // the ring of a focused entry is drawn where the scrolling list does not clip it
    await entry(page, reader).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    const ring = await page.evaluate(() => {
      const b = document.activeElement as HTMLElement;
      const style = getComputedStyle(b);
      const out = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
      const r = b.getBoundingClientRect();
      const panel = document.getElementById('list-panel')!;
      const p = panel.getBoundingClientRect();
      return { left: r.left - out, right: r.right + out, panelLeft: p.left, panelRight: p.left + panel.clientWidth, style: style.outlineStyle };
    });
    assert.equal(ring.style, 'solid');
    assert.ok(ring.left >= ring.panelLeft && ring.right <= ring.panelRight, JSON.stringify(ring));
    // the transcript fills most of the conversation view
    const transcript = (await page.locator('#transcript').boundingBox())!;
    assert.ok(transcript.height >= 400, `the transcript is ${transcript.height} px high`);
    assert.ok((await page.locator('#controls').boundingBox())!.height <= 48, 'the toolbar is one row');
    await entry(page, 'Visitor 38e1509b').waitFor();
    await shot(page, 'toolbar-desktop');
    await page.close();
  });

  test("keyboard only: an operator's day — sign in, pick the waiting visitor, take over, reply with a canned response, add a note, hand back, resolve", async () => {
    const api = consoleClient(server.client, await signInApi(server.client, keys.operatorEmail, keys.operatorPassword));
    assert.equal((await api.post('/canned', { Shortcut: 'thanks', Text: 'Thank you for waiting! **We are on it.**' })).status, 201);
    const visitor = uid('day');
    await chatOk(server, token, { UserId: visitor, Text: 'human' });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/console`);
    // focus starts in the e-mail field (once the page has found no session: typed before that,
    // on a loaded machine, the keys went nowhere); nothing below clicks
    await page.waitForFunction(() => document.activeElement?.id === 'signin-email');
    await page.keyboard.type(keys.operatorEmail);
    await page.keyboard.press('Tab');
    await page.keyboard.type(keys.operatorPassword);
    await page.keyboard.press('Enter');
    await page.locator('.conversation-open').first().waitFor();
    for (let i = 0; i < 10 && (await focusedUser(page)) !== visitor; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await focusedUser(page), visitor, 'the waiting visitor is reached with the arrow keys');
    await page.keyboard.press('Enter');
    await page.locator('#conversation-title').filter({ hasText: visitor }).waitFor();
    await page.keyboard.press('t');
    await page.locator('#conversation-state').getByText('Taken over by Demo operator').waitFor();
    await page.keyboard.press('r');
    assert.equal(await focusedUser(page), 'message-text');
    await page.keyboard.type('/than');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#message-text').inputValue(), 'Thank you for waiting! **We are on it.**');
    await page.keyboard.press('Enter');
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.locator('.line-operator strong').getByText('We are on it.').waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    assert.equal(await focusedUser(page), 'note-text');
    await page.keyboard.type('Asked about a late parcel; check with the warehouse.');
    await page.keyboard.press('Enter');
    await page.locator('.note-text').getByText('Asked about a late parcel; check with the warehouse.').waitFor();
    await shot(page, 'walkthrough-desktop');
    await page.keyboard.press('Escape');
    await page.keyboard.press('h');
    await page.locator('#conversation-state').getByText('Bot', { exact: true }).waitFor();
    await page.keyboard.press('e');
    await page.locator('#status').getByText(/resolved/).waitFor();
    await transcript.locator('.line-activity').getByText('Demo operator resolved the conversation').waitFor();

    const pending = await chatOk(server, token, { UserId: visitor, Command: 'PENDING' });
    assert.deepEqual(pending.Parts.map((p: any) => p.Text), ['Thank you for waiting! **We are on it.**']);
    assert.equal((await server.client.get(`/custom/state?userid=${visitor}`, { token })).body.State, 0);
    const listed = (await api.get('/conversations')).body.Conversations.find((c: any) => c.UserId === visitor);
    assert.equal(listed.Status, 'resolved');
    const opened = await api.get(api.conversationPath(listed.BotId, visitor));
    assert.deepEqual(opened.body.Notes.map((n: any) => n.Text), ['Asked about a late parcel; check with the warehouse.']);
    assert.deepEqual(opened.body.Activity.map((a: any) => a.Kind), ['takeover', 'handover', 'resolve']);
    // resolved conversations leave the Open list; the visitor's next message brings it back
    await entry(page, visitor).waitFor({ state: 'detached' });
    await chatOk(server, token, { UserId: visitor, Text: 'one more thing' });
    await entry(page, visitor).waitFor();
    await page.close();
  });

  test('snooze from the More menu, the Snoozed filter, and a transfer to a team goes to its online member', async () => {
    const api = consoleClient(server.client, await signInApi(server.client, keys.operatorEmail, keys.operatorPassword));
    const me = (await api.get('/me')).body;
    const created = await api.post('/teams', { Name: 'Billing', OperatorIds: [me.OperatorId] });
    assert.equal(created.status, 201, created.text);
    const page = await signIn(1280, 800);
    const sleeper = uid('sleeper');
    await chatOk(server, token, { UserId: sleeper, Text: 'hello' });
    await open(page, sleeper);
    await page.locator('#more-menu > summary').click();
    await shot(page, 'more-menu-desktop');
    await page.getByRole('button', { name: 'Snooze 1 hour' }).click();
    await page.locator('#status').getByText(/snoozed until/).waitFor();
    await entry(page, sleeper).waitFor({ state: 'detached' });
    await page.getByLabel('Inbox').selectOption('snoozed');
    await entry(page, sleeper).waitFor();
    await open(page, sleeper);
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Transfer…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer the conversation' });
    await dialog.getByLabel('To a colleague or a team').selectOption({ label: 'Billing (1 online)' });
    await shot(page, 'transfer-desktop');
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await page.locator('#status').getByText(`${sleeper}: transferred to Billing, Demo operator.`).waitFor();
    await page.locator('#assignee').getByText(/Assigned to you · Team Billing/).waitFor();
    await page.close();
    const phone = await signIn(390, 844);
    await open(phone, reader);
    await phone.locator('#more-menu > summary').click();
    await shot(phone, 'more-menu-phone');
    assert.deepEqual(await axe(phone), []);
    await phone.close();
  });

  test('no script error on any page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
