// Issue 15, "Build" for the widget, in real Chromium on /demo at 1280×800 and on a 390×844 phone:
// markdown in bot and operator texts (safely: no markup of the text ever runs), answered quick
// replies fold away, typing shows in a bubble, pictures that do not load give way to initials or a
// placeholder, the launcher turns into a close button, the operator is named, the phone gets a
// full-screen window with 16 px input text, focus rings keep 3:1, and the texts speak German.
// Screenshots: test-output/widget-build-*.png and /tmp/shots/ui-widget-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { widgetBundle } from '../../src/channels/web/widget-bundle.js';
import { seedDemo, type DemoKeys } from '../../src/demo.js';
import { launchChromium, screenshot, servePictures } from '../support/browser.js';
import { chatOk } from '../support/chat-kit.js';
import { botToken } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MARKDOWN = '**Opening hours** are *weekdays*:\n- 9 to 12\n- 14 to 18\nSee [our page](https://example.org/hours) or [this](javascript:alert(1)) <img src=x onerror="window.pwned=1">';

/** The page API of widget.js (ui/widget/index.ts). */
interface Colloquy {
  start(options: { bot: string; lang?: string; open?: boolean }): void;
  reset(): Promise<void>;
}

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = css
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((v) => Number(v) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('widget build items of issue 15 (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let keys: DemoKeys;
  let token: string;
  const shots: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    keys = (await seedDemo(server.running.services))!;
    token = await botToken(server.client, keys.accountKey, keys.botKey, keys.botSecret);
    browser = await launchChromium();
    fs.mkdirSync('/tmp/shots', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  async function openPage(width: number, height: number, locale = 'en-US'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, locale, isMobile: width < 500, hasTouch: width < 500 });
    const opened = await context.newPage();
    opened.setDefaultTimeout(10_000);
    opened.on('pageerror', (error) => pageErrors.push(error.message));
    await servePictures(opened);
    // a picture that is gone: the widget must not show a broken image
    await opened.route('https://example.org/gone.png', (route) => route.fulfill({ status: 404, body: '' }));
    return opened;
  }
  const shot = async (name: string) => {
    shots.push(await screenshot(page, `widget-build-${name}`));
    await page.screenshot({ path: `/tmp/shots/ui-widget-${name}.png` });
  };
  const log = () => page.getByRole('log', { name: 'Conversation' });
  const said = (text: string) => log().getByText(text, { exact: true }).last().waitFor();
  const live = () => page.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' });
  const userId = async () => (await page.evaluate((key) => localStorage.getItem(`colloquy:${key}:user`), keys.webKey))!;

  test('desktop: bot markdown is bold, italic, a list and a safe link; nothing in the text runs', async () => {
    page = await openPage(1280, 800);
    await page.goto(`${server.url}/demo`);
    await said('What can I do for you?');
    await live();
    await chatOk(server, token, { UserId: await userId(), Text: MARKDOWN }, { CHANNEL: 'web', DIRECTION: 'BOT' });
    const bubble = log().locator('.bubble', { hasText: 'Opening hours' });
    await bubble.waitFor();
    assert.equal(await bubble.locator('strong').textContent(), 'Opening hours');
    assert.equal(await bubble.locator('em').textContent(), 'weekdays');
    assert.deepEqual(await bubble.locator('ul > li').allTextContents(), ['9 to 12', '14 to 18']);
    const links = await bubble.locator('a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')]));
    assert.deepEqual(links, [['our page', 'https://example.org/hours', 'noopener noreferrer']]);
    assert.match((await bubble.textContent()) ?? '', /\[this\]\(javascript:alert\(1\)\) <img src=x onerror="window.pwned=1">$/);
    assert.equal(await bubble.locator('img').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    await shot('1-markdown');
  });

  test("desktop: answered quick replies fold away; the answer stays as the user's bubble", async () => {
    await page.reload();
    await live();
    await page.evaluate(() => (window as unknown as { Colloquy: Colloquy }).Colloquy.reset());
    await said('What can I do for you?');
    const quick = log().getByRole('button', { name: 'Track an order', exact: true });
    assert.equal(await quick.isVisible(), true);
    await quick.click();
    await said('What is your order number? (six digits)');
    assert.equal(await log().getByRole('button', { name: 'Browse products', exact: true, includeHidden: true }).last().isVisible(), false);
    assert.equal(await log().locator('.row.user .bubble', { hasText: 'Track an order' }).isVisible(), true);
    await shot('2-quick-replies-folded');
  });

  test('desktop: what the user types is not markdown', async () => {
    await page.getByRole('textbox', { name: 'Message' }).fill('**not bold**');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const mine = log().locator('.row.user .bubble', { hasText: '**not bold**' });
    await mine.waitFor();
    assert.equal(await mine.locator('strong').count(), 0);
  });

  test('desktop: a typing pause shows three dots in a bot bubble', async () => {
    await chatOk(server, token, { UserId: await userId(), Parts: [{ Type: 0, Text: 'Thanks for waiting.', TypeDelay: 2500 }] }, { CHANNEL: 'web', DIRECTION: 'BOT' });
    const typing = page.locator('#colloquy-widget .typing');
    await typing.waitFor({ state: 'visible' });
    assert.equal(await typing.locator('.bubble i').count(), 3);
    // the same bubble as the bot's messages
    const background = (selector: string) =>
      page
        .locator(`#colloquy-widget ${selector}`)
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(await background('.typing .bubble'), await background('.row.bot .bubble'));
    await shot('3-typing-bubble');
    await said('Thanks for waiting.');
    await typing.waitFor({ state: 'hidden' });
  });

  test('desktop: a picture that does not load becomes a labelled placeholder', async () => {
    await chatOk(server, token, { UserId: await userId(), Parts: [{ Type: 3, Text: 'Your parcel', Url: 'https://example.org/gone.png' }] }, { CHANNEL: 'web', DIRECTION: 'BOT' });
    const placeholder = log().getByRole('img', { name: 'Your parcel' });
    await placeholder.waitFor();
    assert.equal(await placeholder.evaluate((el) => el.tagName), 'DIV');
    assert.equal(await placeholder.textContent(), 'Image not available');
    assert.equal(await log().locator('img').count(), 0);
  });

  test('desktop: the operator is named on their messages, with their initials', async () => {
    // the demo's operator (operator@demo.local) is called "Demo operator"
    const res = await server.client.post('/custom/state', { userid: await userId(), state: 'takeover', operator: keys.operatorEmail }, { token });
    assert.equal(res.status, 200, res.text);
    await said('You are now talking with Demo operator.');
    await chatOk(server, token, { UserId: await userId(), Text: 'Hi, *Dee* here.' }, { CHANNEL: 'web', DIRECTION: 'OPERATOR' });
    const row = log().locator('.row.operator', { hasText: 'here.' }).last();
    await row.waitFor();
    assert.equal(await row.locator('.who').textContent(), 'DODemo operator');
    assert.equal(await row.locator('.who .face').getAttribute('aria-hidden'), 'true');
    assert.equal(await row.locator('em').textContent(), 'Dee', 'operator texts are markdown too');
    await shot('4-operator-named');
    // after a reload the name is still there (the resume says who has the conversation)
    await page.reload();
    await live();
    await log().locator('.row.operator .who', { hasText: 'Demo operator' }).first().waitFor();
    await server.client.post('/custom/state', { userid: await userId(), state: 'handover' }, { token });
    await said('You are talking with the bot again.');
  });

  test('desktop: the launcher shows a cross while the window is open; focus rings keep 3:1', async () => {
    const launcher = page.locator('#colloquy-widget .launcher');
    assert.equal(await launcher.getAttribute('aria-label'), 'Close chat');
    assert.equal(await launcher.locator('path[d="M6 6l12 12M18 6L6 18"]').count(), 1);
    await page.keyboard.press('Tab');
    const ring = async (selector: string, on: string) => {
      const el = page.locator(`#colloquy-widget ${selector}`);
      await el.focus();
      const style = await el.evaluate((e) => ({
        focused: e.matches(':focus-visible'),
        style: getComputedStyle(e).outlineStyle,
        width: getComputedStyle(e).outlineWidth,
        color: getComputedStyle(e).outlineColor,
      }));
      assert.equal(style.style, 'solid', selector);
      assert.equal(style.width, '3px', selector);
      assert.ok(contrast(style.color, on) >= 3, `${selector}: ${style.color} on ${on} is ${contrast(style.color, on).toFixed(2)}:1`);
    };
    await ring('input', 'rgb(255, 255, 255)');
    await ring('.close', 'rgb(29, 78, 216)');
    await ring('.launcher', 'rgb(255, 255, 255)');
    await shot('5-focus-launcher-open');
    await launcher.click();
    assert.equal(await launcher.getAttribute('aria-label'), 'Open chat with Support Desk');
    assert.equal(await launcher.locator('path[d="M6 6l12 12M18 6L6 18"]').count(), 0);
  });

  test('phone: the window fills the screen, the launcher steps aside, input text is 16 px; a missing avatar shows initials', async () => {
    page = await openPage(390, 844);
    // the demo bot's avatar (https://example.org/avatars/support.png) is gone
    await page.route('https://example.org/avatars/**', (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.url}/demo`);
    await said('What can I do for you?');
    const box = await page.locator('#colloquy-widget .window').boundingBox();
    assert.deepEqual(box, { x: 0, y: 0, width: 390, height: 844 });
    assert.equal(await page.locator('#colloquy-widget .launcher').isVisible(), false);
    assert.equal(await page.locator('#colloquy-widget input').evaluate((i) => getComputedStyle(i).fontSize), '16px');
    const face = page.locator('#colloquy-widget .head .avatar.initials');
    await face.waitFor();
    assert.equal(await face.textContent(), 'SD');
    await shot('6-phone');
    await page.locator('#colloquy-widget .close').click();
    assert.equal(await page.locator('#colloquy-widget .launcher').isVisible(), true);
    await shot('7-phone-closed');
  });

  test('the widget stays small: under 30 KB gzipped', async () => {
    const { gzipBytes } = await widgetBundle();
    console.log(`widget.js: ${gzipBytes} bytes gzipped`);
    assert.ok(gzipBytes < 30 * 1024, `${gzipBytes} bytes`);
  });

  test('German: chosen by the page (data-lang, or <html lang>) or, without one, the browser', async () => {
    page = await openPage(1280, 800, 'de-DE');
    await page.goto(`${server.url}/demo`);
    await page.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' });
    // the demo page says lang="en": English, whatever the browser
    assert.equal(await page.locator('#colloquy-widget .close').getAttribute('aria-label'), 'Close chat');
    await page.evaluate((bot) => (window as unknown as { Colloquy: Colloquy }).Colloquy.start({ bot, lang: 'de', open: true }), keys.webKey);
    await page.getByRole('log', { name: 'Unterhaltung' }).waitFor();
    assert.match((await page.locator('#colloquy-widget input').getAttribute('placeholder')) ?? '', /^(Nachricht schreiben…|Bitte oben eine Option wählen)$/);
    assert.equal(await page.locator('#colloquy-widget .close').getAttribute('aria-label'), 'Chat schließen');
    assert.equal(await page.locator('#colloquy-widget').getAttribute('lang'), 'de');
    await shot('8-german');
    // no data-lang and no page language: the browser's (de-DE)
    await page.evaluate((bot) => {
      document.documentElement.removeAttribute('lang');
      (window as unknown as { Colloquy: Colloquy }).Colloquy.start({ bot, open: true });
    }, keys.webKey);
    await page.getByRole('log', { name: 'Unterhaltung' }).waitFor();
    await page.evaluate((bot) => {
      document.documentElement.lang = 'en-GB';
      (window as unknown as { Colloquy: Colloquy }).Colloquy.start({ bot, open: true });
    }, keys.webKey);
    await page.getByRole('log', { name: 'Conversation' }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
