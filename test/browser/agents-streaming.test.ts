// agents.md "Streaming" and "Trace" in real Chromium at 1280×800 and 390×844: the widget shows a
// streamed answer as a bubble that grows piece by piece (each piece leaves the AI double only once
// the page shows the one before: no clock) and the whole message then replaces it, once; the
// console draws the answer live at the end of the open transcript, and under the agent's answer a
// collapsed "Steps" disclosure opened with the keyboard (aria-expanded), with no serious axe
// violation. Screenshots: /work/shots/streaming/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { AiDouble } from '../support/ai-double.js';
import { seriousViolations } from '../support/axe.js';
import { launchChromium, serveSite, type SiteServer } from '../support/browser.js';
import { botFile, text } from '../support/chat-kit.js';
import { addOperator } from '../support/console-kit.js';
import { signedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sendWeb, webKeyOf } from '../support/web-kit.js';
import { VIEWPORTS, widgetKit } from '../support/widget-kit.js';

const SHOTS = '/work/shots/streaming';
const agent = { type: 'agent', instructions: 'You are the shop assistant.', timeoutMs: 10_000, onError: [text('Let me get a colleague.')] };
const bot = botFile(
  [
    { name: 'Start', actions: [text('Hi, ask the assistant.')] },
    { name: 'Agent', actions: [agent] },
  ],
  {
    settings: { ai: { stream: true }, channels: { web: { enabled: true, allowedOrigins: ['*'] } } },
    triggers: [{ match: 'assistant', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Agent' }] }],
  },
);
const PIECES = ['Your order ', 'left our shop ', 'this morning; ', 'it arrives tomorrow.'];

describe('agents: streaming and the trace in the browser', () => {
  let server: TestServer;
  let ai: AiDouble;
  let tenant: Tenant;
  let key: string;
  let site: SiteServer;
  let browser: Browser;
  before(async () => {
    ai = await AiDouble.start();
    server = await startTestServer('sqlite');
    tenant = await createTenant(server.client, bot);
    key = await webKeyOf(server.client, tenant);
    const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: tenant.accountToken });
    assert.equal(put.status, 200, put.text);
    await addOperator(server.client, tenant.accountId, 'ann@example.org');
    site = await serveSite(
      `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>A shop</h1></main><script src="${server.url}/widget.js" data-bot="${key}" data-open="true"></script></body></html>`,
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser.close();
    await site.close();
    await server.close();
    await ai.close();
  });

  /** the pieces, each released once `shown(text so far)` holds on the page */
  const streamed = (shown: (text: string) => Promise<unknown>, shoot?: () => Promise<unknown>) =>
    ai.next({
      content: PIECES.join(''),
      pieces: PIECES,
      gate: async (i) => {
        if (i === 0) return;
        await shown(PIECES.slice(0, i).join(''));
        if (i === PIECES.length - 1) await shoot?.();
      },
    });

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`${size}: the widget's bubble grows, then the message replaces it once; the console shows it live and the Steps`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(site.url);
      const w = widgetKit(page, key);
      await w.said('Hi, ask the assistant.');
      await w.live();
      const bubble = (p: Page, expected: string) =>
        p.waitForFunction((t) => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('.streaming:not([hidden]) .bubble')?.textContent === t, expected);
      streamed(
        (t) => bubble(page, t),
        () => page.screenshot({ path: `${SHOTS}/widget-growing-${size}.png` }),
      );
      await w.type('assistant');
      await w.said(PIECES.join(''));
      await page.waitForFunction(() => document.querySelector('#colloquy-widget')!.shadowRoot!.querySelector('.streaming')!.hasAttribute('hidden'));
      const rows = (await w.transcript()).map((r) => r.text);
      assert.deepEqual(rows.slice(-2), ['assistant', PIECES.join('')], 'the whole message once, after the question');
      assert.equal(rows.filter((r) => r === PIECES.join('')).length, 1);
      await page.screenshot({ path: `${SHOTS}/widget-final-${size}.png` });
      const userId = await w.userId();

      // the console: the same conversation, a second answer drawn live, then the steps
      const { page: desk, errors } = await signedInPage(browser, server, 'ann@example.org', viewport);
      await desk.goto(`${server.url}/console`);
      await desk
        .getByRole('navigation', { name: /^Conversations/ })
        .getByRole('button')
        .first()
        .click();
      await desk.locator('#transcript').getByText(PIECES.join(''), { exact: true }).waitFor();
      // the growing answer, with the user's question (stored only with the turn) drawn just above it
      const live = (t: string) =>
        desk.waitForFunction((x) => {
          const answer = document.querySelector('#transcript .line-streaming');
          const question = answer?.previousElementSibling;
          return answer?.querySelector('.part-text')?.textContent === x && question?.matches('.line-streaming-question.line-user') && question.querySelector('.part-text')?.textContent === 'assistant';
        }, t);
      streamed(live, () => desk.screenshot({ path: `${SHOTS}/console-growing-${size}.png` }));
      await sendWeb(server.client, key, { UserId: userId, Text: 'assistant' });
      await desk.waitForFunction(
        (t) => Array.from(document.querySelectorAll('#transcript .part-text')).filter((p) => p.textContent === t).length === 2 && !document.querySelector('.line-streaming, .line-streaming-question'),
        PIECES.join(''),
      );
      const steps = desk.getByRole('button', { name: 'Steps (1)' }).last();
      assert.equal(await steps.getAttribute('aria-expanded'), 'false');
      await steps.focus();
      await desk.keyboard.press('Enter');
      assert.equal(await steps.getAttribute('aria-expanded'), 'true');
      const list = desk.locator(`#${await steps.getAttribute('aria-controls')}`);
      assert.match((await list.textContent()) ?? '', /^Model call · OK · \d+ ms · 17 tokens$/);
      await steps.scrollIntoViewIfNeeded();
      await desk.screenshot({ path: `${SHOTS}/console-steps-${size}.png` });
      assert.deepEqual(await seriousViolations(desk), []);
      await desk.keyboard.press('Enter');
      assert.equal(await steps.getAttribute('aria-expanded'), 'false');
      assert.deepEqual(errors, []);
      assert.deepEqual(await seriousViolations(page), []);
      await context.close();
      await desk.context().close();
    });
  }
});
