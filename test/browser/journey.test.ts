// Issue 37's whole journey, as a bike shop's support lead who does not code would take it, in one
// browser: sign in on the sign-in page → a new bot from the support FAQ template → the shop's FAQ
// on the knowledge page → the designer's preview answers from it → an edit published → the embed
// line copied from the Install tab → that line on the shop's own page (another port, so another
// origin) → a visitor asks, gets the FAQ's answer, asks for a person → the lead answers in the
// inbox → resolves. Nothing but the browser is used after the account and the lead's operator are
// made (what an administrator's one command does). Screenshots of every step, at 1280×800 and
// 390×844: /work/shots/journey/<database>-<width>-<n>-<step>.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { launchChromium, serveSite, type SiteServer } from '../support/browser.js';
import { botFile, text } from '../support/chat-kit.js';
import { addOperator } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { field } from '../support/designer-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { widgetKit } from '../support/widget-kit.js';

const SHOTS = '/work/shots/journey';
const LEAD = { email: 'lee@spokeandchain.example', password: 'a long password for Lee', name: 'Lee Lead' };
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

for (const kind of databaseKinds()) {
  describe(`from nothing to a live bot without a terminal (Chromium, ${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let browser: Browser;
    before(async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      // the server as it ships: the built-in model on, so a visitor's paraphrase finds the FAQ by meaning
      server = await startTestServer(kind, { COLLOQUY_BUILTIN_MODEL: 'on' });
      // the account starts with an unrelated bot, as one made by the installer would
      tenant = await createTenant(
        server.client,
        botFile(
          [
            { name: 'Hello', actions: [text('Hi')] },
            { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
          ],
          { name: 'First bot' },
        ),
      );
      await addOperator(server.client, tenant.accountId, LEAD.email, LEAD.password, LEAD.name, 'admin');
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    /** until the built-in model has read every passage of the bot's sources (the console's own API, with the page's session) */
    const untilUnderstood = async (context: BrowserContext, botId: string) => {
      for (let i = 0; i < 600; i++) {
        const answer = await context.request.get(`${server.url}/console/api/bots/${encodeURIComponent(botId)}/knowledge`);
        assert.equal(answer.status(), 200);
        const sources = (await answer.json()).Result;
        if (sources.length > 0 && sources.every((s: { Chunks: number; Embedded: number }) => s.Embedded === s.Chunks)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.fail('the FAQ was never read by the built-in model');
    };

    for (const viewport of VIEWPORTS) {
      test(`sign in, new bot, FAQ, preview, publish, embed, chat, hand-over, answer, resolve (${viewport.width}px)`, async () => {
        const botName = `Spoke & Chain ${viewport.width}`;
        const context = await browser.newContext({ viewport });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
        /** the console's link to a page, in whichever header the current page has */
        const go = (name: string) => page.getByRole('link', { name, exact: true }).first().click();
        let step = 0;
        const snap = async (p: Page, name: string) => {
          step += 1;
          await p.screenshot({ path: `${SHOTS}/${kind}-${viewport.width}-${String(step).padStart(2, '0')}-${name}.png` });
          assert.deepEqual(await seriousViolations(p), [], `axe on step ${name}`);
        };

        // 1. Sign in on the sign-in page.
        await page.goto(`${server.url}/console`);
        await page.getByLabel('E-mail', { exact: true }).fill(LEAD.email);
        await page.getByLabel('Password', { exact: true }).fill(LEAD.password);
        await snap(page, 'sign-in');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Conversations' }).waitFor();
        await snap(page, 'inbox-empty');

        // 2. A new bot from the support FAQ template, in the designer.
        await go('Designer');
        await page.locator('.react-flow__node-step').first().waitFor();
        await page.getByRole('button', { name: 'New bot' }).click();
        const dialog = page.getByRole('dialog', { name: 'New bot' });
        await dialog.getByLabel('Name', { exact: true }).fill(botName);
        await dialog.getByRole('radio', { name: /Support FAQ/ }).check();
        await snap(page, 'new-bot');
        await dialog.getByRole('button', { name: 'Create bot' }).click();
        await page.getByRole('status').getByText(`Made ${botName}: it is published and can chat.`).waitFor();
        await page.locator('.outline .pick', { hasText: 'Ask for a person' }).waitFor();
        await snap(page, 'bot-made');
        const botId = new URL(page.url()).searchParams.get('bot');
        assert.ok(botId, 'the designer shows the new bot');

        // 3. The shop's FAQ on the knowledge page.
        await go('Knowledge');
        assert.equal(await page.locator('#bot option:checked').textContent(), botName);
        await page.getByRole('radio', { name: 'FAQ' }).check();
        await page.locator('#name').fill('Shop FAQ');
        const pairs: Array<[string, string]> = [
          ['Can you store my bike after a repair?', 'We keep a repaired bike for up to 14 days free of charge; after that storage costs 2 euros a day.'],
          ['When are you open?', 'The workshop is open Tuesday to Saturday, 9:00 to 18:00.'],
        ];
        for (const [index, [question, answer]] of pairs.entries()) {
          if (index > 0 || (await page.locator('#faq-rows > li').count()) === 0) await page.getByRole('button', { name: 'Add a question' }).click();
          await page.getByLabel(`Question ${index + 1}`, { exact: true }).fill(question);
          await page.getByLabel(`Answer ${index + 1}`, { exact: true }).fill(answer);
        }
        await snap(page, 'faq-filled');
        await page.getByRole('button', { name: 'Add source' }).click();
        await page.locator('#sources li', { hasText: 'Shop FAQ' }).locator('.badge', { hasText: 'Ready' }).waitFor();
        await snap(page, 'faq-ready');

        // The visitor below asks in words the FAQ does not use: wait until the model has read the
        // pairs (its first use loads it, seconds on a busy machine). Read through the API: the page
        // shows indexing, not this model's progress.
        await untilUnderstood(context, botId);

        // 4. The preview answers from the FAQ.
        await go('Designer');
        await page.locator('.react-flow__node-step').first().waitFor();
        await page.getByRole('tab', { name: 'Preview' }).click();
        await page.getByRole('button', { name: 'Start a preview conversation' }).click();
        await page.locator('.bubble.bot', { hasText: 'Ask me anything' }).waitFor();
        await page.getByLabel('Message to the draft').fill('how long can my bike stay with you after a repair?');
        await page.getByLabel('Message to the draft').press('Enter');
        await page.locator('.bubble.bot', { hasText: 'up to 14 days free of charge' }).waitFor();
        await snap(page, 'preview');

        // 5. An edit, published.
        await page.locator('.outline .pick', { hasText: 'Welcome' }).click();
        await page.getByRole('tab', { name: 'Interaction' }).click();
        await page.locator(field('$.behaviours[0].interactions[0].actions[0].text')).fill('Hello from Spoke & Chain! Ask me about repairs, storage or opening hours.');
        await page.keyboard.press('Control+s');
        await page.locator('#unsaved', { hasText: /^Saved \(draft v\d+\)$/ }).waitFor();
        await page.getByRole('button', { name: 'Publish' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: /Published version \d+\./ })
          .waitFor();
        await snap(page, 'published');

        // 6. The embed line, copied from the Install tab.
        await page.getByRole('tab', { name: 'Install' }).click();
        await page.waitForFunction(() => (document.querySelector('#embed') as HTMLTextAreaElement | null)?.value.includes('widget.js'));
        await page.getByRole('button', { name: 'Copy', exact: true }).click();
        await page.getByRole('status').getByText('Copied. Paste it before </body> on every page that should show the chat.').waitFor();
        const embed = await page.evaluate(() => navigator.clipboard.readText());
        assert.match(embed, /^<script src="http:\/\/127\.0\.0\.1:\d+\/widget\.js" data-bot="[^"]+"><\/script>$/);
        await snap(page, 'install');

        // 7. The shop's own page, on another port, with the line pasted in.
        const site: SiteServer = await serveSite(
          `<!doctype html><html lang="en"><head><title>Spoke &amp; Chain</title></head><body><main><h1>Spoke &amp; Chain bikes</h1><p>Repairs, storage and rentals.</p></main>${embed}</body></html>`,
        );
        try {
          const visitor = await context.newPage();
          visitor.on('pageerror', (error) => errors.push(`site page error: ${error.message}`));
          await visitor.goto(site.url);
          const webKey = /data-bot="([^"]+)"/.exec(embed)![1];
          const w = widgetKit(visitor, webKey);
          await visitor.getByRole('button', { name: /^Open chat/ }).click();
          await w.said('Hello from Spoke & Chain! Ask me about repairs, storage or opening hours.');
          await w.type('can I leave my bike with you for a while after you fix it?');
          await w
            .log()
            .getByText(/up to 14 days free of charge/)
            .last()
            .waitFor();
          await snap(visitor, 'visitor-answered');

          // 8. The visitor asks for a person, says what it is about, and waits quietly.
          await w.type('I would like to talk to a person');
          await w.said('I am asking a colleague to join. Tell us what it is about while you wait.');
          await w.type('My rear brake squeaks since the service last week.');
          await w.said('A colleague will be with you shortly.');
          await snap(visitor, 'visitor-waiting');

          // 9. The lead answers in the inbox.
          await go('Conversations');
          const entry = page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /rear brake squeaks/ });
          await entry.click();
          await page.getByRole('button', { name: 'Take over' }).click();
          await page.getByLabel('Message to the user').fill('Hi, Lee here. Bring it by tomorrow and we will adjust the brake for free.');
          await page.getByRole('button', { name: 'Send' }).click();
          await snap(page, 'inbox-answer');
          await w.said('Hi, Lee here. Bring it by tomorrow and we will adjust the brake for free.');
          await snap(visitor, 'visitor-answer');

          // 10. Resolved.
          await page.getByRole('button', { name: 'Resolve' }).click();
          await page
            .getByRole('status')
            .getByText(/: resolved\. A new message from them opens it again\.$/)
            .waitFor();
          await page
            .getByRole('navigation', { name: 'Conversations' })
            .getByRole('button', { name: /rear brake squeaks|Bring it by tomorrow/ })
            .waitFor({ state: 'detached' });
          await snap(page, 'resolved');
          assert.deepEqual(errors, []);
        } finally {
          await site.close();
          await context.close();
        }
      });
    }
  });
}
