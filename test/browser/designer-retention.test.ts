// governance.md "Retention" in the designer: the Bot tab edits settings.retention (the form the bot
// schema generates, in plain words), a save keeps it in the draft, and a publish makes it the
// policy GET /bots/{APIKey}/retention reports. Desktop and phone, by keyboard, axe-core.
// Screenshots: /work/shots/gov/designer-retention-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.js';
import { DESKTOP, designerWorld, field, pageAs, PHONE, saveStatus } from '../support/designer-kit.js';
import { supportBot } from '../support/fixtures.js';

const SHOTS = '/work/shots/gov';

describe('the designer edits the retention policy (Chromium)', () => {
  const world = designerWorld('sqlite', supportBot(), [['dee@example.org', 'Dee Designer', 'designer']]);
  before(() => fs.mkdirSync(SHOTS, { recursive: true }));

  test('Bot tab: the idle and age limits, saved in the draft, the policy once published', async () => {
    const { server, browser, tenant, botId } = world;
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, errors } = await pageAs(browser, server, 'dee@example.org', viewport);
      await page.goto(`${server.url}/console/designer?bot=${botId}`);
      await page.getByRole('tab', { name: 'Bot' }).click();
      const idle = page.locator(field('$.settings.retention.inactiveDays'));
      if ((await idle.count()) === 0) await page.locator(`${field('$.settings.retention')}-add`).click();
      await idle.waitFor();
      assert.equal(await page.locator(`label[for="${field('$.settings.retention.inactiveDays').slice(1)}"]`).textContent(), 'Forget a conversation idle for (days, 0: never) (optional)');
      await idle.focus();
      await page.keyboard.press('Control+a');
      await page.keyboard.type(viewport === DESKTOP ? '30' : '0.5');
      await idle.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/designer-retention-${viewport.width}.png` });
      assert.deepEqual(await seriousViolations(page), []);
      await page.keyboard.press('Control+s');
      await saveStatus(page, /^Saved \(draft v\d+\)$/);
      const draft = (await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken })).body;
      assert.equal(draft.settings.retention.inactiveDays, viewport === DESKTOP ? 30 : 0.5);
      assert.deepEqual(errors, []);
      await page.context().close();
    }
    assert.equal((await server.client.post(`/bots/${tenant.botKey}/publish`, {}, { token: tenant.accountToken })).status, 200);
    const policy = (await server.client.get(`/bots/${tenant.botKey}/retention`, { token: tenant.accountToken })).body;
    assert.equal(policy.InactiveDays, 0.5);
    assert.equal(policy.KeepDays, 0);
  });
});
