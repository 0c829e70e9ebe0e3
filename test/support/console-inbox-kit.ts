// What the console-inbox browser tests share (issue 27): a server with the demo seeded and the
// conversations they look at (a long one with contact variables, an operator's markdown and a
// rare word early on; a visitor known by a UUID only; one waiting for a person), Chromium, and
// the page's parts. `inboxWorld()` registers the hooks inside a describe; the bindings below are
// filled in by its `before` (ES module bindings are live, so the tests read them as they are then).
import fs from 'node:fs';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { launchChromium, servePictures } from './browser.js';
import { chatOk, uid } from './chat-kit.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { botToken } from './fixtures.js';
import { startTestServerOn, type TestServer } from './server.js';
import { seriousViolations } from './axe.js';

const SHOTS = '/work/shots';
/** issue 37's screenshots of the inbox (its own folder) */
export const INBOX_SHOTS = '/work/shots/inbox';
export const VISITOR = '38e1509b-5f1c-4c1e-9a57-1b2f3c4d5e01';

export let server: TestServer;
export let browser: Browser;
export let keys: DemoKeys;
export let token: string;
export const reader = uid('reader');
export const waiter = uid('waiter');
/** script errors any page raised */
export const pageErrors: string[] = [];

export function inboxWorld(): void {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServerOn(database, {});
    keys = (await seedDemo(server.running.services))!;
    token = await botToken(server.client, keys.accountKey, keys.botKey, keys.botSecret);
    await chatOk(server, token, { UserId: reader, Text: 'my zeppelin order is late', Variables: [{ Name: 'city', Value: 'Amsterdam Centraal Station' }] });
    for (let i = 1; i <= 12; i++) await chatOk(server, token, { UserId: reader, Text: `question number ${i} about shipping and returns` });
    await chatOk(server, token, { UserId: reader, Text: '**Hello** from support <img src=x onerror="window.__hacked=1">' }, { DIRECTION: 'OPERATOR' });
    await chatOk(server, token, { UserId: VISITOR, Text: 'hello' });
    await chatOk(server, token, { UserId: waiter, Text: 'human' });
    browser = await launchChromium();
    fs.mkdirSync(INBOX_SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await database?.drop();
  });
}

/** A console page of this size (`touch`: a phone's touch screen, no mouse), signed in as the demo operator, its list drawn. */
export async function signIn(width: number, height: number, options: { touch?: boolean } = {}): Promise<Page> {
  const touch = options.touch ? { hasTouch: true, isMobile: true } : {};
  const page = await (await browser.newContext({ viewport: { width, height }, ...touch })).newPage();
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
export const list = (page: Page) => page.getByRole('navigation', { name: /^Conversations/ });
export const entry = (page: Page, text: string | RegExp) => list(page).getByRole('button', { name: text });
export const open = async (page: Page, user: string) => {
  await entry(page, user).click();
  await page.locator('#conversation-title').filter({ hasText: user }).waitFor();
};
export const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/console-${name}.png` });
/** A screenshot under /work/shots/inbox/ (issue 37). */
export const inboxShot = (page: Page, name: string) => page.screenshot({ path: `${INBOX_SHOTS}/${name}.png` });
/** Serious and critical axe-core violations on the page as it is now. */
export const axe = seriousViolations;
export const focusedUser = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.userId ?? document.activeElement?.id ?? null);
