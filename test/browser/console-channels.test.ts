// Issue 41: the designer's Install tab connects a bot to Telegram and Slack with forms, by keyboard
// alone: a refused token said in plain words next to the form, the webhook (and Slack's
// interactivity) URL shown and copied, a delivery failure shown with its time, Disconnect behind a
// confirmation; secrets never come back into the page; axe-clean at 1280×800 and 390×844.
// Screenshots: designer-<db>-channels-*.png in $DESIGNER_SHOTS.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.js';
import { botFile, text } from '../support/chat-kit.js';
import { eventually } from '../support/console-kit.js';
import { pageDatabases } from '../support/databases.js';
import { designerWorld, DESKTOP, pageAs, PHONE, shot } from '../support/designer-kit.js';
import { SlackDouble } from '../support/slack-double.js';
import { SIGNING_SECRET, SLACK_BOT_TOKEN } from '../support/slack-kit.js';
import { TelegramDouble } from '../support/telegram-double.js';

const TOKEN = '123456789:AAH-test-token-abcdefghijklmnopqrstu';
const WRONG_TOKEN = '987654321:AAH-not-a-token-Telegram-knows-xyz';

/** The focused element's accessible handle: its label, or its text. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? '');

for (const kind of pageDatabases()) {
  describe(`the designer's channel settings (Chromium, ${kind})`, () => {
    let telegram: TelegramDouble;
    let slack: SlackDouble;
    before(async () => {
      telegram = await TelegramDouble.start();
      telegram.bots.set(TOKEN, 'shop_test_bot');
      slack = await SlackDouble.start(SLACK_BOT_TOKEN);
    });
    const bot = botFile([
      { name: 'Hello', actions: [text('Hi from the bike shop')] },
      { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
    ]);
    const world = designerWorld(kind, bot, [['dee@example.org', 'Dee Designer', 'designer']], () => ({ COLLOQUY_TELEGRAM_API_URL: telegram.url, COLLOQUY_SLACK_API_URL: slack.url }));
    after(async () => {
      assert.deepEqual(telegram.violations, [], 'every Bot API call had the documented shape');
      slack.assertNoViolations();
      await telegram.close();
      await slack.close();
    });

    const listed = async (channel: string) => {
      const res = await world.server.client.get(`/bots/${world.tenant.botKey}/channels`, { token: world.tenant.accountToken });
      return res.body.Result.find((c: { Channel: string }) => c.Channel === channel);
    };
    const openInstall = async (page: Page) => {
      await page.goto(`${world.server.url}/console/designer?bot=${world.botId}#install`);
      await page.getByRole('heading', { name: 'Connect messaging apps' }).waitFor();
      await page.locator('details[data-channel=slack] summary').waitFor();
    };

    test('Telegram and Slack connected, copied, failing and disconnected by keyboard alone (1280px)', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', DESKTOP);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.server.url });
      await openInstall(page);
      const summaries = await page.locator('.channel-settings summary').allTextContents();
      assert.deepEqual(summaries, [
        'Telegram not connected',
        'WhatsApp not connected',
        'Messenger not connected',
        'Slack not connected',
        'SMS (Twilio) not connected',
        'Chatwoot not connected',
        'Instagram not connected',
        'Microsoft Teams not connected',
      ]);

      // Telegram: a token Telegram does not know is refused, said next to the form; nothing is connected.
      await page.locator('details[data-channel=telegram] summary').focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'Token');
      assert.equal(await page.getByLabel('Bot token').getAttribute('type'), 'password');
      const telegramCard = page.locator('details[data-channel=telegram]');
      // Not even shaped like a token: the server's words, naming the field by its label.
      await page.keyboard.type('not-a-token');
      await page.keyboard.press('Enter');
      await telegramCard.getByRole('alert').getByText('“Bot token” must be the bot token BotFather gave (digits, a colon, then letters).').waitFor();
      await page.keyboard.press('Control+a');
      await page.keyboard.type(WRONG_TOKEN);
      await page.keyboard.press('Enter');
      await telegramCard.getByRole('alert').getByText('Telegram refused these details (it said: “Unauthorized”). Check them in Telegram and try again.').waitFor();
      assert.equal((await listed('telegram')).Enabled, false);
      await page.screenshot({ path: shot(kind, 'channels-refused-1280'), fullPage: true });
      assert.deepEqual(await seriousViolations(page), []);

      // The right token: connected as the bot's @username; the webhook URL is the one Telegram was given.
      await page.keyboard.press('Control+a');
      await page.keyboard.type(TOKEN);
      await page.keyboard.press('Enter');
      await telegramCard.getByRole('status').getByText('Telegram is connected as @shop_test_bot.').waitFor();
      await page.locator('details[data-channel=telegram] summary', { hasText: 'connected as @shop_test_bot' }).waitFor();
      const webhookUrl = await telegramCard.getByLabel('Webhook URL', { exact: true }).inputValue();
      assert.equal(webhookUrl, telegram.webhook!.url);
      assert.match(webhookUrl, new RegExp(`^${world.server.url}/channels/telegram/[A-Za-z0-9_-]{22,}$`));
      assert.equal(await telegramCard.getByLabel('Bot token').inputValue(), '', 'the token is not kept in the form');
      assert.equal(await telegramCard.locator('.set-state').textContent(), ' set');

      // Copy the webhook URL: back from the token field over Disconnect to the copy button.
      await telegramCard.getByLabel('Bot token').focus();
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focused(page), 'Disconnect Telegram');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focused(page), 'Copy the webhook url');
      await page.keyboard.press('Enter');
      await telegramCard.getByRole('status').getByText('Webhook URL copied.').waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), webhookUrl);

      // Slack: both secrets, then the interactivity URL to paste beside the webhook URL.
      await page.locator('details[data-channel=slack] summary').focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'BotToken');
      await page.keyboard.type(SLACK_BOT_TOKEN);
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'SigningSecret');
      await page.keyboard.type(SIGNING_SECRET);
      await page.keyboard.press('Enter');
      const slackCard = page.locator('details[data-channel=slack]');
      await slackCard.getByRole('status').getByText('Slack is connected as shopbot.').waitFor();
      const slackWebhook = await slackCard.getByLabel('Webhook URL', { exact: true }).inputValue();
      assert.equal(slackWebhook, (await listed('slack')).WebhookUrl);
      assert.equal(await slackCard.getByLabel('Interactivity URL', { exact: true }).inputValue(), `${slackWebhook}/interactive`);
      const html = await page.content();
      for (const secret of [TOKEN, SLACK_BOT_TOKEN, SIGNING_SECRET]) assert.ok(!html.includes(secret), 'no secret is in the page');
      await page.screenshot({ path: shot(kind, 'channels-connected-1280'), fullPage: true });
      assert.deepEqual(await seriousViolations(page), []);

      // A reply Telegram refuses (the user blocked the bot): the channel's last error, with its time.
      telegram.answerNext({ status: 403 });
      const update = { update_id: 1, message: { message_id: 1, date: 1700000000, chat: { id: 4242, type: 'private' }, from: { id: 4242, is_bot: false, first_name: 'Ann' }, text: 'hello' } };
      const sent = await world.server.client.post(new URL(webhookUrl).pathname, update, { headers: { 'x-telegram-bot-api-secret-token': telegram.webhook!.secret_token } });
      assert.equal(sent.status, 200);
      await telegram.waitFor(() => telegram.calls.some((c) => c.status === 403), 'the refused reply');
      assert.ok(await eventually(async () => (await listed('telegram')).LastError !== null), 'the failure is noted on the channel');
      await page.reload();
      await page.locator('details[data-channel=slack] summary').waitFor();
      await page.locator('details[data-channel=telegram] summary', { hasText: 'connected as @shop_test_bot, last delivery failed' }).waitFor();
      await page.locator('details[data-channel=telegram] summary').focus();
      await page.keyboard.press('Enter');
      const lastError = await telegramCard.locator('.last-error').textContent();
      assert.match(lastError ?? '', /^Last delivery problem, \S.*: Telegram sendMessage: 403/);
      assert.ok(!(lastError ?? '').includes('Z '), 'the time is said in words, not as the stored ISO stamp');
      assert.match((await telegramCard.locator('.hint', { hasText: 'Last message received' }).textContent()) ?? '', /^Last message received: .+\.$/);
      await page.screenshot({ path: shot(kind, 'channels-last-error-1280'), fullPage: true });

      // Disconnect asks first; Keep leaves it; Yes erases it and Telegram's webhook goes.
      await page.keyboard.press('Tab'); // the webhook URL
      await page.keyboard.press('Tab'); // its copy button
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'Disconnect Telegram');
      await page.keyboard.press('Enter');
      const question = telegramCard.getByRole('group', { name: 'Disconnect Telegram?' });
      await question.waitFor();
      assert.match(await focused(page), /^Disconnect Telegram\? Its secrets are erased/);
      assert.deepEqual(await seriousViolations(page), []);
      await telegramCard.screenshot({ path: shot(kind, 'channels-confirm-1280') });
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'Yes, disconnect');
      await page.keyboard.press('Enter');
      await telegramCard.getByRole('status').getByText('Telegram is disconnected: its secrets are erased and the webhook URL no longer answers.').waitFor();
      await page.locator('details[data-channel=telegram] summary', { hasText: 'Telegram not connected' }).waitFor();
      assert.equal(await telegramCard.getByLabel('Webhook URL', { exact: true }).count(), 0);
      assert.deepEqual([(await listed('telegram')).Enabled, telegram.webhook], [false, null]);
      assert.equal((await world.server.client.post(new URL(webhookUrl).pathname, update, { headers: { 'x-telegram-bot-api-secret-token': 'x' } })).status, 404);
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test('on a phone: the connected Slack settings fit and are axe-clean (390px)', async () => {
      const { page, errors } = await pageAs(world.browser, world.server, 'dee@example.org', PHONE);
      await openInstall(page);
      await page.locator('details[data-channel=slack] summary').click();
      const slackCard = page.locator('details[data-channel=slack]');
      await slackCard.getByLabel('Interactivity URL', { exact: true }).waitFor();
      await slackCard.scrollIntoViewIfNeeded();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, 'nothing sticks out sideways');
      await page.screenshot({ path: shot(kind, 'channels-phone-390') });
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  });
}
