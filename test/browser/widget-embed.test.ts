// The widget embedded in other sites (a second local web server, so another origin): an origin
// the bot does not allow is refused, an allowed one works with data-variables and with
// Colloquy.start({behaviour}); and every reply part type, with a typing pause, in Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, servePictures, serveSite, type SiteServer } from '../support/browser.js';
import { botFile, text } from '../support/chat-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { setWeb, webKeyOf } from '../support/web-kit.js';

const shadow = (page: Page, selector: string) => page.evaluate((s) => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector(s)?.outerHTML ?? null, selector);

describe('web widget embedded in other sites (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let support: Tenant;
  let key: string;
  const sites: SiteServer[] = [];
  const shots: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite');
    support = await createTenant(server.client);
    key = await webKeyOf(server.client, support);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    for (const site of sites) await site.close();
    await server?.close();
    if (shots.length > 0) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
  });

  const site = async (body: string) => {
    const served = await serveSite(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>A shop</h1>${body}</body></html>`);
    sites.push(served);
    return served;
  };
  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 720 } })).newPage();
    await servePictures(page);
    return page;
  };

  test('a page on an origin the bot does not allow is refused (403 ORIGIN_FORBIDDEN), and says so', async () => {
    await setWeb(server.client, support, { enabled: true, allowedOrigins: ['https://shop.example.org'] });
    const shop = await site(`<script src="${server.url}/widget.js" data-bot="${key}" data-open="true"></script>`);
    const page = await newPage();
    // The browser blocks the answers (they carry no CORS headers): the calls fail on the page.
    const calls: string[] = [];
    const failed: string[] = [];
    const succeeded: string[] = [];
    page.on('request', (r) => void (r.url().includes('/web/') && calls.push(r.url())));
    page.on('requestfailed', (r) => void (r.url().includes('/web/') && failed.push(r.url())));
    page.on('response', (r) => void (r.url().includes('/web/') && r.ok() && succeeded.push(r.url())));
    await page.goto(shop.url);
    await page.locator('#colloquy-widget[data-state="failed"]').waitFor({ state: 'attached' });
    await page.getByRole('log').getByText('The chat is not available right now.').waitFor();
    assert.ok(calls.length > 0);
    assert.deepEqual(succeeded, []);
    assert.ok(
      failed.some((url) => url.endsWith('/conversation')),
      JSON.stringify(failed),
    );
    const direct = await fetch(`${server.url}/web/${key}/conversation`, { method: 'POST', headers: { origin: shop.url, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(direct.status, 403);
    assert.equal((await direct.json()).Code, 'ORIGIN_FORBIDDEN');
    shots.push(await screenshot(page, 'widget-7-origin-refused'));
  });

  test('an allowed origin: data-variables fill a new conversation; Colloquy.start({behaviour}) starts elsewhere', async () => {
    const withVariables = await site(`<script src="${server.url}/widget.js" data-bot="${key}" data-open="true" data-variables='{"company": "Initech"}'></script>`);
    const started = await site(`<script src="${server.url}/widget.js"></script><script>Colloquy.start({ bot: ${JSON.stringify(key)}, behaviour: 'Orders', open: true });</script>`);
    await setWeb(server.client, support, { enabled: true, allowedOrigins: [withVariables.url, started.url], acceptVariables: ['company'] });

    const page = await newPage();
    await page.goto(withVariables.url);
    await page.getByRole('log').getByText('Welcome to Initech support!').waitFor();
    const other = await newPage();
    await other.goto(started.url);
    await other.getByRole('log').getByText('What is your order number? (six digits)').waitFor();
    await other.waitForFunction(() => !document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('input')!.disabled);
    const input = other.getByRole('textbox', { name: 'Message' });
    await input.fill('654321');
    await input.press('Enter');
    await other.getByRole('log').getByText('Order 654321 is on its way.').waitFor();
  });

  test('closed until opened: nothing starts before; a returning visitor is reconnected, history is not unread', async () => {
    const shop = await site(`<script src="${server.url}/widget.js" data-bot="${key}"></script>`);
    await setWeb(server.client, support, { enabled: true, allowedOrigins: [shop.url] });
    const page = await newPage();
    const starts: string[] = [];
    page.on('request', (r) => void (r.url().endsWith('/conversation') && starts.push(r.url())));
    await page.goto(shop.url);
    await page.getByRole('button', { name: 'Open chat with Support Desk' }).waitFor();
    assert.deepEqual(starts, [], 'a visitor who does not open the chat creates no conversation');
    await page.getByRole('button', { name: 'Open chat with Support Desk' }).click();
    await page.getByRole('log').getByRole('button', { name: 'Track an order' }).waitFor();
    await page.reload();
    await page.locator('#colloquy-widget[data-state="live"]').waitFor({ state: 'attached' });
    assert.equal(await page.getByRole('dialog').isVisible(), false);
    assert.equal(await shadow(page, '.badge:not([hidden])'), null, 'history is not unread');
    const user = await page.evaluate((k) => localStorage.getItem(`colloquy:${k}:user`), key);
    const res = await server.client.post('/custom/chat', { UserId: user, Text: 'We have news about your order.' }, { token: support.botToken, headers: { DIRECTION: 'OPERATOR' } });
    assert.equal(res.status, 200, res.text);
    await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('.badge')!.textContent === '1');
    await page.getByRole('button', { name: 'Open chat with Support Desk' }).click();
    await page.getByRole('log').getByText('We have news about your order.').waitFor();
  });

  test('every reply part type, with a delay shown as typing for its TypeDelay', async () => {
    const file = botFile(
      [
        {
          name: 'All parts',
          enableUserChat: false,
          actions: [
            text('Docs are at https://example.org/docs, see you there.'),
            { type: 'delay', ms: 1200 },
            text('After the pause.'),
            { type: 'image', url: 'https://example.org/media/photo.png', caption: 'A photo' },
            { type: 'video', url: 'https://example.org/media/clip.mp4', caption: 'A clip' },
            { type: 'audio', url: 'https://example.org/media/note.mp3', caption: 'A note' },
            { type: 'file', url: 'https://example.org/media/terms.pdf', caption: 'Terms' },
            {
              type: 'buttons',
              text: 'Pick one',
              buttons: [
                { type: 'button', text: 'Say hi', onClick: [text('Hi there!')] },
                { type: 'link', text: 'Website', url: 'https://example.org' },
              ],
            },
            { type: 'button', text: 'Quick reply', onClick: [text('Quick!')] },
            { type: 'link', text: 'Bad link', url: 'ftp://files.example.org/list' },
            {
              type: 'carousel',
              cards: [{ title: 'Solo card', subtitle: 'only one', imageUrl: 'https://example.org/p/solo.png', buttons: [{ type: 'link', text: 'More', url: 'https://example.org/more' }] }],
            },
          ],
        },
      ],
      { settings: { channels: { web: { enabled: true, allowedOrigins: ['*'] } } } },
    );
    const tenant = await createTenant(server.client, file);
    const page = await newPage();
    // Times, taken in the page as the widget changes its DOM, when the typing indicator appears
    // and when the text after the pause does (a test process under load cannot skew them).
    await page.addInitScript(() => {
      const marks: Record<string, number> = {};
      (window as unknown as { marks: typeof marks }).marks = marks;
      const attach = Element.prototype.attachShadow;
      Element.prototype.attachShadow = function (init) {
        const root = attach.call(this, init);
        new MutationObserver(() => {
          const typing = root.querySelector<HTMLElement>('.typing');
          if (typing && !typing.hidden && marks.typing === undefined) marks.typing = performance.now();
          if (marks.after === undefined && root.textContent?.includes('After the pause.')) marks.after = performance.now();
        }).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
        return root;
      };
    });
    await page.goto(`${server.url}/demo?bot=${await webKeyOf(server.client, tenant)}`);
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText(/^Docs are at/).waitFor();
    await log.getByRole('link', { name: 'https://example.org/docs' }).waitFor();
    await log.getByText('After the pause.').waitFor();
    const marks = await page.evaluate(() => (window as unknown as { marks: Record<string, number> }).marks);
    assert.ok(marks.typing !== undefined, 'the typing indicator was shown');
    assert.ok(marks.after - marks.typing >= 1150, `the pause lasted ${marks.after - marks.typing} ms`);
    await log.getByRole('group', { name: 'Solo card' }).waitFor();
    assert.match((await shadow(page, 'img[alt="A photo"]'))!, /photo\.png/);
    assert.match((await shadow(page, 'video[controls]'))!, /clip\.mp4/);
    assert.match((await shadow(page, 'audio[controls]'))!, /note\.mp3/);
    assert.match((await shadow(page, 'a[download]'))!, /terms\.pdf/);
    assert.equal(await log.getByRole('link', { name: 'Website (opens in a new tab)' }).getAttribute('href'), 'https://example.org/');
    // a URL of a scheme the widget does not open (ftp: here; javascript: never gets this far: it is
    // refused on save and dropped at run time) is not made a link: an anchor without href, not a "link" role
    assert.equal(await log.getByText('Bad link', { exact: true }).getAttribute('href'), null);
    shots.push(await screenshot(page, 'widget-8-part-types'));
    await page.evaluate(() => void (document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('.scroller')!.scrollTop = 0));
    shots.push(await screenshot(page, 'widget-9-part-types-media'));
    await log.getByRole('button', { name: 'Say hi' }).click();
    await log.getByText('Hi there!').waitFor();
    await log.getByRole('button', { name: 'Quick reply' }).click();
    await log.getByText('Quick!').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).isDisabled(), true);
  });
});
