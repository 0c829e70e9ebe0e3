// Issue 15, console workspace in real Chromium at 1280×800 and on a 390×844 phone: the exact time
// a user has waited for a person, assignment (takeover assigns; assign/unassign; the Mine /
// Unassigned / All filter), private notes with author and time, canned responses (manager, `/`
// shortcut, picker), sound and desktop alerts when someone starts waiting, and the operator typing
// indicator in the widget. Screenshots: test-output/console-workspace-*.png and /tmp/shots/co-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { clockFrom } from '../../src/shared/clock.js';
import { launchChromium, screenshot, servePictures } from '../support/browser.js';
import { chatOk, uid } from '../support/chat-kit.js';
import { signInWithForm } from '../support/console-page-kit.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { botToken } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';

const MINUTE = 60_000;

describe('operator console workspace of issue 15 (Chromium)', () => {
  let database: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let keys: DemoKeys;
  let token: string;
  let page: Page;
  /** the server's clock runs this far behind the real one (to make a user wait for minutes at once) */
  let lag = 0;
  const asker = uid('asker');
  const other = uid('other');
  const shots: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServerOn(database, {}, { clock: clockFrom(() => Date.now() - lag) });
    keys = (await seedDemo(server.running.services))!;
    token = await botToken(server.client, keys.accountKey, keys.botKey, keys.botSecret);
    browser = await launchChromium();
    fs.mkdirSync('/tmp/shots', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await database?.drop();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  async function signIn(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    // Desktop notifications and the chime, observed: a stand-in Notification whose permission the
    // operator's click grants, and a count of the tones the console plays.
    // (A string: functions compiled by tsx carry helpers the page does not have.)
    await context.addInitScript(`
      window.__notes = [];
      window.__tones = 0;
      window.Notification = class {
        static permission = 'default';
        static async requestPermission() { window.Notification.permission = 'granted'; return 'granted'; }
        constructor(title, options) { this.onclick = null; window.__notes.push({ title, body: options.body }); }
      };
      const original = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function () { window.__tones++; return original.call(this); };
    `);
    const opened = await context.newPage();
    opened.setDefaultTimeout(10_000);
    opened.on('pageerror', (error) => pageErrors.push(error.message));
    await servePictures(opened);
    await signInWithForm(opened, server, keys.operatorEmail, keys.operatorPassword);
    return opened;
  }
  const shot = async (name: string) => {
    shots.push(await screenshot(page, `console-workspace-${name}`));
    await page.screenshot({ path: `/tmp/shots/co-${name}.png` });
  };
  const list = () => page.getByRole('navigation', { name: /^Conversations/ });
  const entry = (text: string | RegExp) => list().getByRole('button', { name: text });
  const titles = () => list().locator('.conversation-user').allTextContents();
  const composer = () => page.getByRole('textbox', { name: 'Message to the user' });

  test('desktop: the waiting badge counts from when the user asked for a person, not from the last message', async () => {
    lag = 20 * MINUTE;
    await chatOk(server, token, { UserId: asker, Text: 'human' });
    lag = 0;
    await chatOk(server, token, { UserId: asker, Text: 'A colleague will be with you shortly.' }, { DIRECTION: 'BOT' });
    await chatOk(server, token, { UserId: other, Text: 'hello' });
    page = await signIn(1280, 800);
    await entry(asker).getByText('Waiting for a person · 20 min', { exact: true }).waitFor();
    assert.equal(await entry(asker).locator('.conversation-time').textContent(), 'just now', 'the last message is recent');
    await shot('1-waiting-since');
  });

  test('desktop: taking over assigns; Mine / Unassigned / All; unassign and assign again', async () => {
    await entry(asker).click();
    await page.getByRole('heading', { name: asker }).waitFor();
    assert.equal(await page.locator('#assignee').textContent(), 'Unassigned');
    await page.getByRole('button', { name: 'Take over' }).click();
    await page.locator('#assignee').getByText('Assigned to you', { exact: true }).waitFor();
    await entry(asker)
      .locator('.conversation-bot')
      .getByText(/ · you$/)
      .waitFor();
    const filter = page.getByLabel('Assigned to', { exact: true });
    assert.deepEqual(await filter.locator('option').allTextContents(), ['All assignees', 'Mine', 'Unassigned']);
    await filter.selectOption({ label: 'Mine' });
    assert.deepEqual(await titles(), [asker]);
    await filter.selectOption({ label: 'Unassigned' });
    assert.deepEqual(await titles(), [other]);
    await shot('2-unassigned-filter');
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Unassign' }).click();
    await page.locator('#assignee').getByText('Unassigned', { exact: true }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.conversation-open').length === 2);
    assert.deepEqual((await titles()).sort(), [asker, other].sort());
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await page.locator('#assignee').getByText('Assigned to you', { exact: true }).waitFor();
    await filter.selectOption({ label: 'All assignees' });
  });

  test('desktop: private notes show with author and time in the side panel, never in the transcript', async () => {
    const notes = page.getByRole('region', { name: 'Private notes' });
    await notes.getByLabel('New note').fill('VIP <img src=x onerror=alert(1)> wants a refund');
    await notes.getByRole('button', { name: 'Add note' }).click();
    const note = notes.locator('.note').filter({ hasText: 'wants a refund' });
    await note.waitFor();
    assert.equal(await note.locator('.note-author').textContent(), 'Demo operator');
    assert.match((await note.locator('time').getAttribute('datetime')) ?? '', /^\d{4}-\d\d-\d\dT/);
    assert.equal(await note.locator('.note-text').textContent(), 'VIP <img src=x onerror=alert(1)> wants a refund', 'shown as text');
    assert.equal(await page.getByRole('list', { name: 'Transcript' }).getByText('wants a refund').count(), 0);
    assert.equal(await notes.getByLabel('New note').inputValue(), '');
    await shot('3-notes');
  });

  test('desktop: canned responses are managed in a dialog and inserted with /shortcut or the picker', async () => {
    await page.locator('#account-menu > summary').click();
    await page.getByRole('button', { name: 'Canned responses' }).click();
    const dialog = page.getByRole('dialog', { name: 'Canned responses' });
    await dialog.getByLabel('Shortcut (typed after /)').fill('thanks');
    await dialog.getByLabel('Text', { exact: true }).fill('Thank you for waiting!');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('/thanks', { exact: true }).waitFor();
    await dialog.getByLabel('Shortcut (typed after /)').fill('refund');
    await dialog.getByLabel('Text', { exact: true }).fill('Your refund is on its way.');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('/refund', { exact: true }).waitFor();
    await dialog.getByLabel('Shortcut (typed after /)').fill('thanks');
    await dialog.getByLabel('Text', { exact: true }).fill('dup');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByRole('alert').getByText('already has a canned response /thanks').waitFor();
    await shot('4-canned-manager');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await composer().fill('');
    await composer().pressSequentially('/th');
    const suggestions = page.getByRole('list', { name: 'Canned responses' });
    await suggestions.getByRole('button', { name: /\/thanks/ }).waitFor();
    assert.equal(await suggestions.getByRole('button').count(), 1);
    await shot('5-slash-suggestion');
    await composer().press('Enter');
    assert.equal(await composer().inputValue(), 'Thank you for waiting!');
    assert.equal(await suggestions.isHidden(), true);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('list', { name: 'Transcript' }).getByText('Thank you for waiting!').waitFor();

    await page.getByLabel('Insert a canned response').selectOption({ label: '/refund — Your refund is on its way.' });
    assert.equal(await composer().inputValue(), 'Your refund is on its way.');
  });

  test('desktop: a sound and a desktop notification when someone starts waiting, once allowed by a click', async () => {
    await page.locator('#account-menu > summary').click();
    await page.getByLabel('Sound').check();
    await page.getByRole('button', { name: 'Desktop alerts' }).click();
    await page.getByRole('button', { name: 'Desktop alerts on' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Desktop alerts on' }).getAttribute('aria-pressed'), 'true');
    const newcomer = uid('newcomer');
    await chatOk(server, token, { UserId: newcomer, Text: 'operator' });
    await page.waitForFunction(() => (window as any).__notes.length === 1);
    const notes = await page.evaluate(() => (window as any).__notes);
    assert.deepEqual(notes, [{ title: 'Someone waits for a person', body: `${newcomer} · custom` }]);
    assert.ok((await page.evaluate(() => (window as any).__tones)) >= 2, 'the chime played');
    await shot('6-alerts-on');
  });

  test('desktop: while the operator types, the widget shows "<name> is typing…"', async () => {
    const widget = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    widget.setDefaultTimeout(10_000);
    widget.on('pageerror', (error) => pageErrors.push(error.message));
    await widget.goto(`${server.url}/demo`);
    const log = widget.getByRole('log', { name: 'Conversation' });
    await log.getByText('What can I do for you?').waitFor();
    await widget.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' });
    const webUser = (await widget.evaluate((key) => localStorage.getItem(`colloquy:${key}:user`), keys.webKey))!;
    await entry(webUser).click();
    // a generated id shows shortened (issue 27 item 18)
    await page.getByRole('heading', { name: `Visitor ${webUser.slice(0, 8)}` }).waitFor();
    await page.getByRole('button', { name: 'Take over' }).click();
    await composer().waitFor({ state: 'visible' });
    await page.waitForFunction(() => !(document.getElementById('message-text') as HTMLTextAreaElement).disabled);
    await composer().pressSequentially('Hello, I am');
    const typing = widget.locator('#colloquy-widget').getByText('Demo operator is typing…', { exact: true });
    await typing.waitFor();
    shots.push(await screenshot(widget, 'console-workspace-7-widget-typing'));
    await widget.screenshot({ path: '/tmp/shots/co-7-widget-typing.png' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await log.getByText('Hello, I am').waitFor();
    await typing.waitFor({ state: 'hidden' });
    await widget.context().close();
  });

  test('phone: the open conversation keeps assignment, notes and the canned picker inside 390 px', async () => {
    page = await signIn(390, 844);
    await entry(asker).click();
    await page.getByRole('heading', { name: asker }).waitFor();
    await page.locator('#assignee').getByText('Assigned to you', { exact: true }).waitFor();
    // on a phone the contact and notes are one menu away (issue 27 item 4)
    await page.locator('#more-menu > summary').click();
    await page.getByRole('button', { name: 'Contact and notes' }).click();
    const notes = page.getByRole('region', { name: 'Private notes' });
    await notes.locator('.note').filter({ hasText: 'wants a refund' }).waitFor();
    assert.equal(await page.getByLabel('Insert a canned response').isEnabled(), true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page is ${width} px wide`);
    await page.locator('#more-menu > summary').click();
    for (const name of ['Assign to me', 'Unassign', 'Add note']) {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${name} at ${box.x}+${box.width}`);
    }
    await shot('8-phone-conversation');
    await notes.scrollIntoViewIfNeeded();
    await shot('9-phone-notes');
    await page.locator('#account-menu > summary').click();
    await page.getByRole('button', { name: 'Canned responses' }).click();
    await page.getByRole('dialog', { name: 'Canned responses' }).getByText('/refund', { exact: true }).waitFor();
    await shot('10-phone-canned');
  });

  test('no script error on any page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
