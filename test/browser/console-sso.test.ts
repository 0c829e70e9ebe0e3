// Console single sign-on in real Chromium (issue 42): the sign-in page asks for the e-mail; one of
// an SSO domain goes to the identity provider (oidc-provider on loopback, test/support/
// oidc-double.ts) and comes back signed in; a sign-in the provider's answer does not allow ends
// on the sign-in page with a plain sentence, no session and a clean address. Keyboard only, at
// 1280×800 and 390×844, axe-core clean; screenshots in /work/shots/sso/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { landmarkViolations, seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator } from '../support/console-kit.js';
import { createAccount } from '../support/fixtures.js';
import { startOidcDouble, type OidcDouble } from '../support/oidc-double.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { putSso, ssoSettings } from '../support/sso-kit.js';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];
const SHOTS = '/work/shots/sso';

describe('console single sign-on (Chromium)', () => {
  let server: TestServer;
  let double: OidcDouble;
  let browser: Browser;
  const pageErrors: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    double = await startOidcDouble(`${server.url}/console/sso/callback`);
    const { AccountId } = await createAccount(server.client);
    assert.equal((await putSso(server, AccountId, ssoSettings(double, { RoleClaim: 'groups', RoleMap: { 'chat-admins': 'admin' } }))).status, 200);
    await addOperator(server.client, AccountId, 'pat@example.org', 'a long password', 'Pat');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await double?.close();
    await server?.close();
  });

  async function pageAt(size: (typeof SIZES)[number]): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: size.width, height: size.height } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }

  const cookiesOf = async (page: Page) => (await page.context().cookies(`${server.url}/console`)).filter((c) => c.name === 'colloquy_console');

  for (const size of SIZES) {
    test(`${size.name}: an SSO e-mail goes to its provider by keyboard and comes back signed in`, async () => {
      double.user = { sub: `ann-${size.name}`, email: `ann.${size.name}@shop.example`, email_verified: true, name: 'Ann Shop', groups: ['chat-admins'] };
      const page = await pageAt(size);
      await page.goto(`${server.url}/console`);
      const email = page.getByLabel('E-mail', { exact: true });
      await email.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'signin-email', 'the e-mail is asked first, focused');
      assert.deepEqual(await seriousViolations(page), [], 'sign-in');
      assert.deepEqual(await landmarkViolations(page), [], 'sign-in landmarks');
      await page.screenshot({ path: `${SHOTS}/sign-in-${size.name}.png` });

      await page.keyboard.type(`ann.${size.name}@shop.example`);
      await page.keyboard.press('Tab');
      // leaving the field already says the company signs this e-mail in: no password asked
      await page.getByRole('button', { name: "Continue to your company's sign-in" }).waitFor();
      assert.equal(await page.getByLabel('Password', { exact: true }).isVisible(), false);
      assert.deepEqual(await seriousViolations(page), [], 'sign-in with an SSO e-mail');
      await page.screenshot({ path: `${SHOTS}/sign-in-sso-email-${size.name}.png` });
      await email.focus();
      await page.keyboard.press('Enter');

      await page.waitForURL(`${server.url}/console`);
      await page.locator('#workspace').waitFor();
      assert.equal(await page.locator('#who-name').textContent(), 'Ann Shop');
      assert.equal(await page.locator('#signin').isVisible(), false);
      assert.equal((await cookiesOf(page)).length, 1);
      assert.deepEqual(await seriousViolations(page), [], 'signed in');
      await page.screenshot({ path: `${SHOTS}/signed-in-${size.name}.png` });
      await page.context().close();
    });

    test(`${size.name}: a refused sign-in ends on the sign-in page with a plain sentence and no session`, async () => {
      double.user = { sub: 'unverified', email: 'new.person@shop.example', email_verified: false };
      const page = await pageAt(size);
      await page.goto(`${server.url}/console`);
      await page.getByLabel('E-mail', { exact: true }).fill('new.person@shop.example');
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert');
      await alert.getByText('Your company account has no verified e-mail address that may sign in here. Ask your administrator.').waitFor();
      assert.equal(new URL(page.url()).search, '', 'the Code is taken out of the address');
      assert.deepEqual(await cookiesOf(page), []);
      assert.equal(await page.getByLabel('E-mail', { exact: true }).isVisible(), true);
      assert.deepEqual(await seriousViolations(page), [], 'failed sign-in');
      await page.screenshot({ path: `${SHOTS}/sso-refused-${size.name}.png` });
      await page.context().close();
    });
  }

  test('a password e-mail still signs in with its password; the page had no script errors', async () => {
    const page = await pageAt(SIZES[0]);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('E-mail', { exact: true }).fill('pat@example.org');
    await page.getByLabel('Password', { exact: true }).fill('a long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#who-name').getByText('Pat').waitFor();
    await page.context().close();
    assert.deepEqual(pageErrors, []);
  });
});
