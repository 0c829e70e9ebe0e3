// Issue 27 "expected reply time or queue position shown to a waiting visitor", in real Chromium at
// 1280×800 and 390×844 on /demo: with five answered waits of the demo bot (1, 2, 3, 4 and 10
// minutes from request to the operator's first message, on the server's clock, which the test
// moves on) a visitor who asks for a person reads their place and "The team usually replies in
// about 3 minutes." in the same status line; axe-core finds nothing serious.
// Screenshots: /work/shots/console-expected-reply-*.png.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEMO_OPERATOR_EMAIL } from '../../src/demo.js';
import { clockFrom } from '../../src/shared/clock.js';
import { seriousViolations } from '../support/axe.js';
import { buttonCommand } from '../support/chat-kit.js';
import { botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { demoSession, shot, VIEWPORTS, widgetKit } from '../support/widget-kit.js';
import { sendWeb, startWeb } from '../support/web-kit.js';

const MINUTE = 60_000;

for (const viewport of VIEWPORTS) {
  describe(`widget: the expected reply time of a waiting visitor (Chromium ${viewport.width}×${viewport.height})`, () => {
    let ahead = 0;
    const session = demoSession(viewport, 'sqlite', { clock: clockFrom(() => Date.now() + ahead) });

    test('five answered waits: the waiting visitor reads their place and the usual reply time', async () => {
      const { server, keys, page } = session;
      const botId = await botIdOf(server, keys.botKey);
      const c = consoleClient(server.client, await signIn(server.client, DEMO_OPERATOR_EMAIL, keys.operatorPassword));
      for (const minutes of [1, 2, 3, 4, 10]) {
        const started = await startWeb(server.client, keys.webKey);
        await sendWeb(server.client, keys.webKey, { UserId: started.UserId, Command: buttonCommand(started.Parts, 'Talk to a person') });
        ahead += minutes * MINUTE;
        const path = c.conversationPath(botId, started.UserId);
        for (const [step, body] of [
          ['takeover', {}],
          ['messages', { Text: 'Hello, I am here.' }],
          ['handover', {}],
        ] as const) {
          const res = await c.post(`${path}/${step}`, body);
          assert.equal(res.status, 200, `${step}: ${res.text}`);
        }
        ahead += MINUTE;
      }
      const w = widgetKit(page, keys.webKey);
      await page.goto(`${server.url}/demo`);
      await w.live();
      await w.button('Talk to a person').click();
      const status = page.getByRole('status').getByText('You are next in the queue. The team usually replies in about 3 minutes.', { exact: true });
      await status.waitFor();
      await w.said('I am asking a colleague to join. Please hold on.');
      assert.equal(await status.isVisible(), true);
      await shot(page, `console-expected-reply-${viewport.width}`);
      assert.deepEqual(await seriousViolations(page), []);
    });

    test('no page raised a script error', () => {
      assert.deepEqual(session.errors, []);
    });
  });
}
