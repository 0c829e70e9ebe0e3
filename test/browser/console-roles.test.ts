// Issue 27, teams are the admins' (docs/designer.md "Roles"): in real Chromium at 1280×800 and
// 390×844 the console's Settings menu offers "Teams" to an admin and not to an agent (the server
// refuses an agent's change to a team whatever the page shows, and lets them transfer to one:
// test/e2e/console-inbox.test.ts), and the menu opens inside the screen. axe-core finds nothing
// serious with the menu open.
// Screenshots: /work/shots/console-teams-<role>-<width>.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { consoleClient, signIn } from '../support/console-kit.js';
import { supportBot } from '../support/fixtures.js';
import { designerWorld, pageAs } from '../support/designer-kit.js';
import { SHOTS, VIEWPORTS } from '../support/widget-kit.js';

describe('console roles: teams are changed by admins only (Chromium)', () => {
  const world = designerWorld('sqlite', supportBot(), [
    ['ann@example.org', 'Ann Admin', 'admin'],
    ['ada@example.org', 'Ada Agent', 'agent'],
  ]);
  const openSettings = async (page: Page) => {
    await page.goto(`${world.server.url}/console`);
    await page.getByRole('heading', { name: 'Conversations' }).waitFor();
    await page.getByText('Settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Canned responses' }).waitFor();
  };

  for (const viewport of VIEWPORTS) {
    test(`${viewport.width}×${viewport.height}: Teams in the admin's Settings menu only`, async () => {
      const admin = consoleClient(world.server.client, await signIn(world.server.client, 'ann@example.org'));
      if ((await admin.get('/teams')).body.Teams.length === 0) assert.equal((await admin.post('/teams', { Name: 'Billing' })).status, 201);
      const seen: Record<string, boolean> = {};
      fs.mkdirSync(SHOTS, { recursive: true });
      for (const [role, email] of [
        ['admin', 'ann@example.org'],
        ['agent', 'ada@example.org'],
      ] as const) {
        const { page, errors } = await pageAs(world.browser, world.server, email, viewport);
        await openSettings(page);
        seen[role] = await page.getByRole('button', { name: 'Teams', exact: true }).isVisible();
        // the menu opens inside the screen (on a phone it ran off the left edge)
        const box = (await page.locator('#account-menu .menu-body').boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `${role}: menu at ${box.x}..${box.x + box.width} of ${viewport.width}`);
        await page.screenshot({ path: `${SHOTS}/console-teams-${role}-${viewport.width}.png` });
        assert.deepEqual(await seriousViolations(page), [], role);
        assert.deepEqual(errors, [], role);
        await page.context().close();
      }
      assert.deepEqual(seen, { admin: true, agent: false });
    });
  }
});
