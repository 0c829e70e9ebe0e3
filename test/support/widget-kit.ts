// What the widget's browser tests share: the two screen sizes of issue 27, screenshots into
// /work/shots, and the widget's parts found by role inside its shadow root.
import fs from 'node:fs';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { launchChromium, servePictures } from './browser.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { botToken } from './fixtures.js';
import { startTestServerOn, type TestServer } from './server.js';
import type { StartOptions } from '../../src/main.js';

export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

export const SHOTS = '/work/shots';

export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = `${SHOTS}/${name}.png`;
  await page.screenshot({ path: file });
  return file;
}

/** What has the focus in the widget: 'launcher', the input's id, or a button's text; null when the page has it. */
export function focusedInWidget(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const active = document.querySelector('#colloquy-widget')?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    if (!active) return null;
    if (active.classList.contains('launcher')) return 'launcher';
    return active.id || active.textContent;
  });
}

export function widgetKit(page: Page, webKey: string) {
  const log = () => page.getByRole('log', { name: 'Conversation' });
  const input = () => page.getByRole('textbox', { name: 'Message' });
  return {
    log,
    input,
    said: (text: string) => log().getByText(text, { exact: true }).last().waitFor(),
    live: () => page.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' }),
    /** the newest of the buttons still enabled */
    button: (name: string) => log().getByRole('button', { name, exact: true, disabled: false }).last(),
    async type(text: string): Promise<void> {
      await input().fill(text);
      await input().press('Enter');
    },
    userId: async () => (await page.evaluate((key) => localStorage.getItem(`colloquy:${key}:user`), webKey))!,
    inputDisabled: (disabled: boolean) => page.waitForFunction((d) => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled === d, disabled),
    close: () => page.evaluate(() => (window as unknown as { Colloquy: { close(): void } }).Colloquy.close()),
    /** The transcript's rows: their text (without the sender's label) and the time shown under them, if any. */
    transcript: () =>
      page.evaluate(() =>
        Array.from(document.querySelector('#colloquy-widget')!.shadowRoot!.querySelectorAll('.log > .row')).map((row) => ({
          text: (row.querySelector('.bubble, .card strong') ?? row).textContent!.trim(),
          time: row.querySelector('time')?.getAttribute('datetime') ?? null,
        })),
      ),
  };
}

export interface DemoSession {
  server: TestServer;
  database: TestDatabase;
  browser: Browser;
  page: Page;
  keys: DemoKeys;
  /** a bot token of the demo bot */
  token: string;
  /** script errors the page raised */
  errors: string[];
}

/**
 * Registers before/after hooks that start a server with the demo seeded (on `kind`), and a
 * Chromium page of `viewport`; the session is filled in once `before` has run.
 */
export function demoSession(viewport: { width: number; height: number }, kind: DatabaseKind = 'sqlite', options: StartOptions = {}): DemoSession {
  const session = { errors: [] as string[] } as DemoSession;
  before(async () => {
    session.database = await createTestDatabase(kind);
    session.server = await startTestServerOn(session.database, {}, options);
    session.keys = (await seedDemo(session.server.running.services))!;
    session.token = await botToken(session.server.client, session.keys.accountKey, session.keys.botKey, session.keys.botSecret);
    session.browser = await launchChromium();
    session.page = await (await session.browser.newContext({ viewport })).newPage();
    session.page.setDefaultTimeout(10_000);
    session.page.on('pageerror', (error) => session.errors.push(error.message));
    await servePictures(session.page);
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
    await session.database?.drop();
  });
  return session;
}
