// What the console pages' browser tests share: the two sizes every page is looked at, a page opened
// signed in (the session cookie put in the browser) that gathers the Content-Security-Policy
// complaints and page errors it meets, and the console's own sign-in form filled in.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { servePictures } from './browser.js';
import { SESSION_COOKIE, signIn } from './console-kit.js';
import type { TestServer } from './server.js';

export const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];
export type Size = (typeof SIZES)[number];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Pushes the page's CSP complaints and page errors into `errors`. */
export function gatherErrors(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
}

export interface SignedInOptions {
  /** the operator's password when it is not addOperator's default */
  password?: string;
  /** more for the browser context (e.g. acceptDownloads) */
  context?: BrowserContextOptions;
}

/** A new browser context at `viewport`, signed in as `email` (nobody when null), and its first page, which gathers errors. */
export async function signedInPage(browser: Browser, server: TestServer, email: string | null, viewport = DESKTOP, options: SignedInOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, ...options.context });
  if (email) {
    const cookie = (await signIn(server.client, email, options.password)).slice(SESSION_COOKIE.length + 1);
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: `${server.url}/console` }]);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  gatherErrors(page, errors);
  return { page, errors };
}

/** Opens the console on `page` and signs in with its form; resolves once the conversations list is shown. */
export async function signInWithForm(page: Page, server: TestServer, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/console`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Conversations/ }).waitFor();
}

/** A new page at `viewport` (the transcript's example.org pictures served) signed in with the console's form; its page errors go to `errors`. */
export async function formSignedInPage(browser: Browser, server: TestServer, email: string, password: string, viewport: { width: number; height: number }, errors: string[]): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => errors.push(error.message));
  await servePictures(page);
  await signInWithForm(page, server, email, password);
  return page;
}
