// agents.md "Tools", approvals, in the console (real Chromium at 1280×800 and 390×844): an agent
// operator sees "Waiting for approval" in the list and the pending call as a card in the open
// conversation (tool, arguments, who asked); edits the arguments with the keyboard (bad JSON is
// said at the field before anything is sent, the server's refusal in words), approves and sees the
// bot's answer arrive; rejects a second call with a reason; a call someone else decided first says
// so. No serious axe violation. Screenshots: /work/shots/approvalui/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { AiDouble } from '../support/ai-double.js';
import { approvalBot, askForApproval } from '../support/approval-kit.js';
import { seriousViolations } from '../support/axe.js';
import { launchChromium } from '../support/browser.js';
import { addOperator } from '../support/console-kit.js';
import { pageDatabases } from '../support/databases.js';
import { SIZES, signedInPage } from '../support/console-page-kit.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SHOTS = '/work/shots/approvalui';
const AGENT = 'alex.agent@example.org';

for (const kind of pageDatabases()) {
  describe(`console: agent approvals (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let shop: WebhookReceiver;
    let tenant: Tenant;
    let browser: Browser;
    before(async () => {
      ai = await AiDouble.start();
      shop = await WebhookReceiver.start();
      server = await startTestServer(kind);
      tenant = await createTenant(server.client, approvalBot(shop.url.replace(/\/hook$/, '')));
      const put = await server.client.put(`/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: tenant.accountToken });
      assert.equal(put.status, 200, put.text);
      await addOperator(server.client, tenant.accountId, AGENT, undefined, 'Alex Agent', 'agent');
      browser = await launchChromium();
      fs.mkdirSync(SHOTS, { recursive: true });
    });
    after(async () => {
      await browser.close();
      await server.close();
      await ai.close();
      await shop.close();
    });

    const approvals = async () => (await server.client.get(`/bots/${tenant.botKey}/approvals`, { token: tenant.accountToken })).body.Result as any[];
    const entry = (page: Page, user: string) => page.getByRole('navigation', { name: /^Conversations/ }).getByRole('button', { name: new RegExp(user) });
    const open = async (page: Page, user: string) => {
      await entry(page, user).click();
      await page.locator('#conversation-title').filter({ hasText: user }).waitFor();
    };
    const card = (page: Page, tool = 'cancel_order') => page.getByRole('article', { name: `Approval needed: ${tool}` });
    const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

    for (const size of SIZES) {
      test(`${size.name}: see, edit with the keyboard, approve; reject with a reason; a call decided elsewhere`, async () => {
        shop.calls.length = 0;
        const [first, second, third] = ['first', 'second', 'third'].map((n) => `${n}-${size.name}`);
        await askForApproval(server, tenant.botToken, ai, first!, 'cancel_order', '123456');
        await askForApproval(server, tenant.botToken, ai, second!, 'refund', '222222');
        await askForApproval(server, tenant.botToken, ai, third!, 'cancel_order', '333333');
        const { page, errors } = await signedInPage(browser, server, AGENT, size);
        await page.goto(`${server.url}/console`);
        for (const user of [first, second, third]) await entry(page, user!).getByText('Waiting for approval', { exact: true }).waitFor();
        await page.screenshot({ path: `${SHOTS}/list-${size.name}.png` });

        // the card: tool, arguments as text, who asked
        await open(page, first!);
        const pending = card(page);
        assert.equal(await pending.getByLabel('Arguments', { exact: true }).textContent(), '{\n  "order": "123456"\n}');
        assert.match((await pending.locator('.approval-asked').textContent()) ?? '', new RegExp(`^Asked for ${first} · \\S`));
        assert.deepEqual(await pending.getByRole('button').allTextContents(), ['Approve', 'Edit', 'Reject']);
        await page.screenshot({ path: `${SHOTS}/card-${size.name}.png` });
        assert.deepEqual(await seriousViolations(page), []);

        // Edit with the keyboard: bad JSON is said at the field and nothing is sent
        await pending.getByRole('button', { name: 'Edit' }).focus();
        await page.keyboard.press('Enter');
        const field = pending.getByLabel('Arguments (JSON)');
        assert.equal(await focusedId(page), await field.getAttribute('id'));
        // the field and the button that sends it are in sight together, on a phone too (the box of cards scrolls)
        const inSight = (name: string) =>
          pending.getByRole(name === 'field' ? 'textbox' : 'button', name === 'field' ? {} : { name, exact: true }).evaluate((node) => {
            const r = node.getBoundingClientRect();
            const box = node.closest('.approvals')!.getBoundingClientRect();
            return r.top >= box.top && r.bottom <= box.bottom + 1 && r.top >= 0 && r.bottom <= window.innerHeight;
          });
        assert.deepEqual([await inSight('field'), await inSight('Approve with these arguments')], [true, true]);
        const typeArguments = async (json: string) => {
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.type(json);
          await page.keyboard.press('Tab');
          assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Approve with these arguments');
          await page.keyboard.press('Enter');
        };
        await typeArguments('{"order": 654321');
        const problem = pending.locator('.approval-problem');
        await problem.filter({ hasText: 'This is not valid JSON: check the quotes, commas and braces.' }).waitFor();
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
        assert.equal(await focusedId(page), await field.getAttribute('id'), 'the focus goes back to the field');
        // the server refuses arguments that do not fit the tool's parameters: said in words, nothing decided
        await typeArguments('{"order": "12"}');
        await problem.filter({ hasText: /^The tool does not accept these arguments\. Arguments / }).waitFor();
        assert.equal((await approvals()).find((a) => a.UserId === first).Status, 'pending');
        assert.equal(shop.calls.length, 0);
        await page.screenshot({ path: `${SHOTS}/edit-refused-${size.name}.png` });
        assert.deepEqual(await seriousViolations(page), []);

        ai.next({ content: `Order 654321 is cancelled (${size.name}).` });
        await typeArguments('{"order": "654321"}');
        await pending.getByText('Approved by you', { exact: true }).waitFor();
        assert.equal(await pending.getByLabel('Arguments', { exact: true }).textContent(), '{\n  "order": "654321"\n}', 'the arguments the call was made with');
        await page.locator('#transcript').getByText(`Order 654321 is cancelled (${size.name}).`, { exact: true }).waitFor();
        assert.equal(await pending.getByRole('button').count(), 0, 'a decided card has no buttons');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Approved by you');
        assert.deepEqual(
          shop.calls.map((c) => `${c.method} ${c.path}`),
          ['POST /orders/654321/cancel'],
        );
        const approved = (await approvals()).find((a) => a.UserId === first);
        assert.deepEqual([approved.Status, approved.DecidedBy, approved.Arguments], ['approved', AGENT, { order: '654321' }]);
        await entry(page, first!).getByText('Waiting for approval').waitFor({ state: 'detached' });
        await page.screenshot({ path: `${SHOTS}/approved-${size.name}.png` });
        shop.calls.length = 0;

        // the second: rejected with a reason (the reason field gets the focus; Enter sends)
        if (size.name === 'phone') await page.getByRole('button', { name: '← Conversations' }).click();
        await open(page, second!);
        const refund = card(page, 'refund');
        await refund.getByRole('button', { name: 'Reject' }).focus();
        await page.keyboard.press('Enter');
        assert.equal(await focusedId(page), await refund.getByLabel('Reason (optional, told to the bot)').getAttribute('id'));
        await page.keyboard.type('The customer changed their mind');
        await page.screenshot({ path: `${SHOTS}/reject-${size.name}.png` });
        ai.next({ content: `The refund was not made (${size.name}).` });
        await page.keyboard.press('Enter');
        await refund.getByText('Rejected by you: The customer changed their mind', { exact: true }).waitFor();
        await page.locator('#transcript').getByText(`The refund was not made (${size.name}).`, { exact: true }).waitFor();
        const rejected = (await approvals()).find((a) => a.UserId === second);
        assert.deepEqual([rejected.Status, rejected.DecidedBy, rejected.Reason], ['rejected', AGENT, 'The customer changed their mind']);
        assert.equal(shop.calls.length, 0, 'a rejected call is not made');
        assert.deepEqual(await seriousViolations(page), []);

        assert.deepEqual(errors, []);
        await page.context().close();

        // the third: decided through the account API while a page without live updates shows its card; Approve then hears 409
        const { page: stale, errors: staleErrors } = await signedInPage(browser, server, AGENT, size);
        await stale.route('**/console/api/events', (route) => route.abort());
        await stale.goto(`${server.url}/console`);
        await open(stale, third!);
        const late = card(stale);
        const id = (await approvals()).find((a) => a.UserId === third).ApprovalId;
        ai.next({ content: 'Refused elsewhere.' });
        const elsewhere = await server.client.post(`/bots/${tenant.botKey}/approvals/${id}/reject`, {}, { token: tenant.accountToken });
        assert.equal(elsewhere.status, 200, elsewhere.text);
        await late.getByRole('button', { name: 'Approve' }).click();
        await late.getByText('Rejected by the account API', { exact: true }).waitFor();
        assert.equal(await stale.evaluate(() => document.activeElement?.textContent), 'Rejected by the account API', 'the focus is not lost with the buttons');
        assert.equal(await stale.locator('#status').textContent(), 'Someone else decided this call already; it is shown as they decided.');
        assert.equal(await late.getByRole('button').count(), 0);
        assert.equal(shop.calls.length, 0);
        await stale.screenshot({ path: `${SHOTS}/decided-elsewhere-${size.name}.png` });
        assert.deepEqual(await seriousViolations(stale), []);
        assert.deepEqual(staleErrors, []);
        await stale.context().close();
      });
    }
  });
}
