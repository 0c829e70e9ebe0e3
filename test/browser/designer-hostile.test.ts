// A hostile bot file in the designer (issue 35): behaviour and interaction names, texts, button
// labels, a link, variable names and the problem messages they cause all hold markup. On the
// canvas, the list, the problem list, the diff, the preview, the source view and the bot panel
// they must stay text: no element is made from them (checked inside shadow roots too, where the
// source editor lives), nothing they carry runs (window.__xss stays unset), and the literal text
// shows. The console's CSP would stop the handlers from running anyway, so the element check is
// the one that fails if a view ever renders a name as HTML. Screenshots: designer-<db>-hostile-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { goTo, text } from '../support/chat-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, field, pageAs, PHONE, saveStatus, shot } from '../support/designer-kit.js';

const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
const SVG = '"><svg onload=window.__xss=1>';
const JS = 'javascript:window.__xss=1';
const LINK = `<a href="${JS}">docs</a>`;
/** A link's url with markup in it (a javascript: url itself is refused on save since the link rule). */
const URL_WITH_MARKUP = `https://example.org/${SVG}`;
/** One word of 240 characters: no space to break at. */
const LONG = 'Supercalifragilistic'.repeat(12);
const EDITED = `${SVG} ${IMG}`;

const hostileBot = () => ({
  format: 'colloquy/bot@1',
  name: `Hostile ${IMG}`,
  settings: { enableTypeSpeed: false, wordsPerMinute: 200, simplifiedAuth: false },
  variables: { [IMG]: SCRIPT },
  triggers: [{ match: 'help', actions: [goTo(SVG, SCRIPT)] }],
  behaviours: [
    {
      name: SVG,
      start: true,
      interactions: [
        {
          name: IMG,
          start: true,
          actions: [
            text(SCRIPT),
            {
              type: 'buttons',
              text: SVG,
              buttons: [
                { type: 'button', text: IMG, onClick: [goTo(SVG, LONG)] },
                { type: 'button', text: LONG, onClick: [goTo(SVG, SCRIPT)] },
                { type: 'link', text: LINK, url: URL_WITH_MARKUP },
              ],
            },
            { type: 'link', text: LINK, url: URL_WITH_MARKUP },
          ],
        },
        { name: LONG, actions: [text(`${IMG} ${LONG}`), goTo(SVG, SCRIPT)] },
        { name: SCRIPT, fallback: true, actions: [text(`${SVG} said ${SCRIPT}`)] },
      ],
    },
  ],
});

/** Elements the hostile texts would make if rendered as HTML, in the page and its shadow roots, and
 *  whether any of it ran. A string, not a function: tsx would wrap a function's inner names in a
 *  helper the page does not have. */
const SCAN = `(() => {
  const hostile = 'img[src="x"], svg[onload], [onerror], [onload], script:not([src]), a[href^="javascript:" i]';
  const elements = [];
  const scan = (root) => {
    for (const el of root.querySelectorAll(hostile)) elements.push(el.outerHTML.slice(0, 80));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) scan(el.shadowRoot);
  };
  scan(document);
  return { ran: window.__xss ?? null, elements };
})()`;
const injected = (page: Page): Promise<{ ran: unknown; elements: string[] }> => page.evaluate(SCAN);
const clean = { ran: null, elements: [] };
/** The panes whose content is wider than they are (a long name widening its column). */
const overflowing = (page: Page): Promise<string[]> =>
  page.evaluate(
    `['.outline', '#side-panel', '.problems', '.bot-picker', '.conflict', '.conflict .both'].filter((s) => { const el = document.querySelector(s); return el && el.scrollWidth > el.clientWidth; })`,
  );

for (const kind of pageDatabases()) {
  describe(`the designer shows a hostile bot file as text (Chromium, ${kind})`, () => {
    const world = designerWorld(kind, hostileBot(), [['dee@example.org', 'Dee Designer', 'designer']]);
    const open = `/console/designer?bot=`;

    test('names, texts, labels, links, variables and problem messages with markup stay text on every view', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}${open}${world.botId}`);
      await page.locator('.react-flow__node-step').first().waitFor();
      await page.locator('.react-flow__edge-text').first().waitFor(); // edges are drawn once the nodes are measured
      assert.deepEqual(await injected(page), clean); // first, so a view that makes elements says which

      // The bot picker, the list and the canvas.
      assert.equal(await page.locator('#bot option:checked').textContent(), `Hostile ${IMG}`);
      assert.equal(await page.locator('.outline h3').textContent(), `${SVG}start`);
      assert.deepEqual(await page.locator('.outline .pick .name').allTextContents(), [IMG, LONG, SCRIPT]);
      assert.deepEqual(await page.locator('.react-flow__node-step .step-name').allTextContents(), [IMG, LONG, SCRIPT]);
      assert.equal(await page.locator('.group-title').textContent(), `${SVG} · start`);
      // a long label is cut short on the canvas (the form holds all of it)
      assert.deepEqual((await page.locator('.react-flow__edge-text').allTextContents()).sort(), [`“${IMG}”`, `“${LONG.slice(0, 38)}…`, 'goTo'].sort());
      assert.equal(await page.locator('.outline .pick .name', { hasText: IMG }).isVisible(), true);
      assert.equal(await page.locator('.react-flow__node-step .step-name', { hasText: SCRIPT }).isVisible(), true);
      // The selected interaction's form: its name, the text, the button label and the link.
      assert.equal(await page.locator('#interaction-name').inputValue(), IMG);
      assert.equal(await page.locator(field('$.behaviours[0].interactions[0].actions[0].text')).inputValue(), SCRIPT);
      assert.equal(await page.locator(field('$.behaviours[0].interactions[0].actions[1].buttons[0].text')).inputValue(), IMG);
      assert.equal(await page.locator(field('$.behaviours[0].interactions[0].actions[2].url')).inputValue(), URL_WITH_MARKUP);
      await page.screenshot({ path: shot(kind, 'hostile-desktop') });

      // The bot panel's variables, and the source view.
      await page.getByRole('tab', { name: 'Bot' }).click();
      assert.equal(await page.locator(field('$.variables')).inputValue(), `${IMG}: ${SCRIPT}`);
      await page.getByRole('button', { name: 'Source' }).click();
      await page.getByRole('textbox', { name: 'The draft as JSON' }).filter({ hasText: SCRIPT }).waitFor();
      assert.deepEqual(await injected(page), clean);
      await page.getByRole('button', { name: 'Source' }).click();
      await page.locator('.react-flow__node-step').first().waitFor();

      // Problems: deleting the <script> interaction leaves the trigger's goTo and the long one's
      // dangling; the page says so, then the server does on Save (which keeps the draft), both naming it.
      await page.locator('.outline .pick', { hasText: SCRIPT }).click();
      await page.getByRole('button', { name: 'Delete interaction' }).click();
      const missing = `goTo target: behaviour '${SVG}' has no interaction named '${SCRIPT}'`;
      // every problem is listed (each a button to its field), the ones in interactions too
      const listed = [
        `$.behaviours[0].interactions[0].actions[1].buttons[1].onClick[0].interaction ${missing}`,
        `$.behaviours[0].interactions[1].actions[1].interaction ${missing}`,
        `$.triggers[0].actions[0].interaction ${missing}`,
      ];
      assert.deepEqual(await injected(page), clean);
      assert.deepEqual(await page.locator('.problems li').allTextContents(), listed);
      await page.locator('.outline .pick', { hasText: LONG }).click();
      assert.equal(await page.locator(`${field('$.behaviours[0].interactions[1].actions[1].interaction')}-problem`).textContent(), missing);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await saveStatus(page, /^Saved, with problems \(draft v\d+\): publishing waits until they are fixed\.$/);
      assert.deepEqual(await injected(page), clean);
      assert.deepEqual(await page.locator('.problems li').allTextContents(), listed);
      assert.equal(await page.locator(`${field('$.behaviours[0].interactions[1].actions[1].interaction')}-problem`).textContent(), missing);
      await page.screenshot({ path: shot(kind, 'hostile-problems') });
      await page.getByRole('button', { name: 'Undo' }).click();

      // The diff: the first text edited and saved, compared with version 1.
      await page.locator('.outline .pick', { hasText: IMG }).click();
      await page.locator(field('$.behaviours[0].interactions[0].actions[0].text')).fill(EDITED);
      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      await page.locator('.problems').waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: 'Versions' }).click();
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.locator('.change').first().waitFor();
      assert.deepEqual(await injected(page), clean);
      assert.deepEqual(await page.locator('.change pre').allTextContents(), [`− ${JSON.stringify(text(SCRIPT))}`, `+ ${JSON.stringify(text(EDITED))}`]);
      await page.screenshot({ path: shot(kind, 'hostile-diff') });

      // The preview: the bot's words, where they came from, the button label and the link's text.
      await page.getByRole('tab', { name: 'Preview' }).click();
      await page.getByRole('button', { name: 'Start a preview conversation' }).click();
      await page.locator('.bubble.bot').nth(2).waitFor();
      assert.deepEqual(await injected(page), clean);
      const bubbles = () => page.locator('.bubble.bot').evaluateAll((items) => items.map((li) => [li.querySelector('[dir=auto]')!.textContent, li.querySelector('.from')?.textContent ?? '']));
      const here = `from ${SVG} › ${IMG}`;
      assert.deepEqual(await bubbles(), [
        [EDITED, here],
        [SVG, here],
        [LINK, here],
      ]);
      assert.deepEqual(await page.locator('.chat-buttons button').allTextContents(), [IMG, LONG]);
      assert.deepEqual(await overflowing(page), []);
      await page.locator('.chat-buttons').getByRole('button', { name: IMG }).click();
      await page.locator('.bubble.bot').nth(4).waitFor();
      assert.deepEqual(await injected(page), clean);
      assert.deepEqual((await bubbles()).slice(3), [
        [`${IMG} ${LONG}`, `from ${SVG} › ${LONG}`],
        [`${SVG} said ${SCRIPT}`, `from ${SVG} › ${SCRIPT}`],
      ]);
      assert.equal(await page.locator('.bubble.user').textContent(), IMG);
      await page.screenshot({ path: shot(kind, 'hostile-preview') });
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('comparing my draft with theirs after a conflicting save shows both as text', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org');
      await page.goto(`${world.server.url}${open}${world.botId}`);
      await page.locator('.outline .pick').first().waitFor();
      await page.locator(field('$.behaviours[0].interactions[0].actions[0].text')).fill(`${IMG} mine`);
      // Meanwhile someone saves the draft through the API with another hostile text.
      const api = { token: world.tenant.accountToken };
      const theirs = (await world.server.client.get(`/bots/${world.tenant.botKey}`, api)).body;
      const version = theirs.version;
      delete theirs.version;
      theirs.behaviours[0].interactions[1].actions[0].text = `${SCRIPT} theirs`;
      const put = await world.server.client.put(`/bots/${world.tenant.botKey}`, theirs, { ...api, headers: { 'if-match': String(version) } });
      assert.equal(put.status, 200, put.text);
      await page.keyboard.press('Control+s');
      await page.getByRole('button', { name: 'Compare both' }).click();
      await page.locator('.conflict .both h3').nth(1).waitFor();
      assert.deepEqual(await injected(page), clean);
      assert.deepEqual(await page.locator('.conflict .both h3').allTextContents(), [`${SVG} › ${IMG}`, `${SVG} › ${LONG}`]);
      const sides = await page.locator('.side-by-side pre').allTextContents(); // theirs, mine of each part
      assert.ok(sides[1]!.includes(`"text": "${IMG} mine"`), sides[1]);
      assert.ok(sides[2]!.includes(`"text": "${SCRIPT} theirs"`), sides[2]);
      assert.deepEqual(await overflowing(page), []);
      await page.screenshot({ path: shot(kind, 'hostile-conflict') });
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('on a phone the long name does not push the page sideways', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', PHONE);
      await page.goto(`${world.server.url}${open}${world.botId}`);
      await page.locator('.react-flow__node-step').first().waitFor();
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'no sideways scrolling');
      await page.locator('.outline .pick', { hasText: LONG }).click();
      assert.deepEqual(await overflowing(page), []);
      // React Flow marks a node's outgoing handle with the class "source", which the source view's
      // rules once matched: on a phone every handle became a 30rem bar across the canvas.
      assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('.react-flow__handle')].map((h) => h.getBoundingClientRect().height).filter((h) => h > 20)`), []);
      assert.deepEqual(await injected(page), clean);
      await page.screenshot({ path: shot(kind, 'hostile-phone') });
      await page.screenshot({ path: shot(kind, 'hostile-phone-full'), fullPage: true });
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
