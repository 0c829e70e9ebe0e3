// The analytics page's browser tests (test/browser/analytics-*.test.ts): a server whose clock the
// scripted conversations of analytics-kit.ts move, signed-in operators, and a page opened at a size
// that records CSP violations and page errors.
import fs from 'node:fs';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { clockFrom } from '../../src/shared/clock.js';
import { analyticsBot, DAY_A, runScript } from './analytics-kit.js';
import { addOperator, botIdOf } from './console-kit.js';
import { signedInPage, type Size } from './console-page-kit.js';
import { createTenant, type Tenant } from './fixtures.js';
import { startTestServer, type TestServer } from './server.js';

export { SIZES, type Size } from './console-page-kit.js';
export const SHOTS = '/work/shots';

/** A server with the analytics bot, ann@example.org (admin) and dee@example.org (designer), and the script run. */
export async function analyticsServer(): Promise<{ server: TestServer; tenant: Tenant; botId: string }> {
  let now = Date.parse(`${DAY_A}T08:00:00Z`);
  const server = await startTestServer('sqlite', { COLLOQUY_TOKEN_MINUTES: '100000' }, { clock: clockFrom(() => now) });
  const tenant = await createTenant(server.client, analyticsBot());
  const botId = await botIdOf(server, tenant.botKey);
  await addOperator(server.client, tenant.accountId, 'ann@example.org');
  await addOperator(server.client, tenant.accountId, 'dee@example.org', undefined, 'Dee Designer', 'designer');
  await runScript(server, tenant, 'ann@example.org', botId, (ms) => (now = ms));
  fs.mkdirSync(`${SHOTS}/analytics`, { recursive: true });
  return { server, tenant, botId };
}

/** A new browser context at `size`, signed in as `email` unless null; `errors` collects CSP violations and page errors. */
export async function pageAt(browser: Browser, server: TestServer, size: Size, email: string | null = 'ann@example.org'): Promise<{ page: Page; errors: string[] }> {
  return signedInPage(browser, server, email, size, { context: { acceptDownloads: true } });
}

/** Starts the server and Chromium before the suite's tests and stops them after; read the fields inside tests. */
export function analyticsSuite() {
  const suite = {} as { server: TestServer; tenant: Tenant; botId: string; browser: Browser };
  before(async () => {
    Object.assign(suite, await analyticsServer());
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/** Waits until the page has said what it shows (or what went wrong): the status is neither empty nor loading. */
export const settled = (page: Page) =>
  page.waitForFunction(() => {
    const text = document.getElementById('status')?.textContent ?? '';
    return text !== '' && text !== 'Loading…';
  });

/** Pixels of the canvas `id` painted in (about) the colour `hex` ("#rrggbb"). */
export const inkedIn = (page: Page, id: string, hex: string) =>
  page.locator(`#${id}`).evaluate(
    (c, rgb) => {
      const canvas = c as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 200 && Math.abs(data[i] - rgb[0]) < 12 && Math.abs(data[i + 1] - rgb[1]) < 12 && Math.abs(data[i + 2] - rgb[2]) < 12) n++;
      }
      return n;
    },
    [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)),
  );
