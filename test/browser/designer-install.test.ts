// Issue 37 "Install": the designer's Install tab shows the one-line embed with a copy button, and the
// widget's title, colour, greeting and corner, previewed live as they are typed; once saved, the
// widget on a page shows them. Keyboard reaches every control; axe-clean at 1280×800 and 390×844.
// Screenshots: designer-<db>-install-*.png in $DESIGNER_SHOTS.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.js';
import { botFile, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, DESKTOP, pageAs, PHONE, shot } from '../support/designer-kit.js';

for (const kind of pageDatabases()) {
  describe(`the designer's Install tab (Chromium, ${kind})`, () => {
    const bot = botFile(
      [
        { name: 'Hello', actions: [text('Hi from the bike shop')] },
        { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
      ],
      {
        name: 'Bike shop',
        settings: { channels: { web: { enabled: true, allowedOrigins: ['*'] } } },
      },
    );
    const world = designerWorld(kind, bot, [['dee@example.org', 'Dee Designer', 'designer']]);

    for (const viewport of [DESKTOP, PHONE]) {
      test(`embed line, look previewed live, saved, and seen on a page (${viewport.width}px)`, async () => {
        const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', viewport);
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.server.url });
        await page.goto(`${world.server.url}/console/designer?bot=${world.botId}`);
        await page.locator('.react-flow__node-step').first().waitFor();
        const stored = (await world.server.running.store.bots.byId(world.botId))!;

        await page.getByRole('tab', { name: 'Install' }).click();
        const embed = page.getByLabel("Add this line to your site's pages");
        await page.waitForFunction(() => (document.querySelector('#embed') as HTMLTextAreaElement | null)?.value.includes('widget.js'));
        assert.equal(await embed.inputValue(), `<script src="${world.server.url}/widget.js" data-bot="${stored.webKey}"></script>`);
        await page.getByRole('heading', { name: 'On messaging apps' }).waitFor();
        assert.deepEqual(await page.locator('.channel-links li').allTextContents(), []);
        await page.getByText('Not on any messaging app yet: connect one below.').waitFor();
        await page.getByRole('button', { name: 'Copy', exact: true }).click();
        await page.getByRole('status').getByText('Copied. Paste it before </body> on every page that should show the chat.').waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await embed.inputValue());

        // Keyboard alone: from the title field, type; Tab on to the greeting.
        await page.getByLabel('Title').fill('');
        await page.keyboard.type(`Ask the shop ${viewport.width}`);
        assert.equal(await page.locator('.mock-header').textContent(), `Ask the shop ${viewport.width}`, 'the preview follows the typing');
        await page.getByLabel('Colour').fill('#9a3412');
        await page.getByLabel('Greeting above the conversation').fill('');
        await page.keyboard.type('We answer within minutes.');
        await page.getByRole('radio', { name: 'Bottom left' }).check();
        assert.equal(await page.locator('.mock-greeting').textContent(), 'We answer within minutes.');
        assert.equal(await page.locator('.mock-header').evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(154, 52, 18)');
        assert.equal(await page.locator('.look-preview').getAttribute('data-side'), 'left');
        await page.screenshot({ path: shot(kind, `install-${viewport.width}`), fullPage: true });
        assert.deepEqual(await seriousViolations(page), []);
        await page.keyboard.press('Control+s');
        await page.locator('#unsaved', { hasText: /^Saved \(draft v\d+\)$/ }).waitFor(); // not "Unsaved changes", which holds "saved" too

        // The widget on a page shows what was set.
        const site = await page.context().newPage();
        await site.goto(`${world.server.url}/demo?bot=${encodeURIComponent(stored.webKey)}`);
        await site.getByRole('dialog', { name: `Ask the shop ${viewport.width}` }).waitFor();
        const look = await site.evaluate(() => {
          const host = document.querySelector('#colloquy-widget') as HTMLElement;
          const root = host.shadowRoot!;
          return {
            side: host.getAttribute('data-side'),
            color: host.style.getPropertyValue('--c'),
            launcherLeft: getComputedStyle(root.querySelector('.launcher')!).left,
            greeting: root.querySelector('.greeting')!.textContent,
          };
        });
        assert.deepEqual(look, { side: 'left', color: '#9a3412', launcherLeft: '20px', greeting: 'We answer within minutes.' });
        await site.screenshot({ path: shot(kind, `install-site-${viewport.width}`) });
        assert.deepEqual(errors, []);
        await page.context().close();
      });
    }
  });
}
