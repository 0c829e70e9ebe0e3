// Issue 41's delivery paths on the five newer channels (channels-more.md), on each database: a
// conversation started through the platform, then an OPERATOR and a BOT injection through
// /custom/chat with its CHANNEL (api.md "Chatting on another channel"), an operator writing from the
// console after a takeover, and a broadcast (broadcasts.md) reach the platform as its own message.
// Then the platforms' rules for broadcasts: SMS honours STOP, Instagram keeps Meta's 24-hour window.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { B_MORE, Broadcasts, promoBot } from '../support/broadcast-kit.js';
import { chatOk } from '../support/chat-kit.js';
import { addOperator, botIdOf, consoleClient, signIn } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { FIVE_CHANNELS, type FiveChannel, FiveChannels, type Line } from '../support/five-channels-kit.js';

const HOUR = 3_600_000;
const OFFER = 'Our sale starts today, friend! D41';

/** Each platform's own message for a plain text, and for the broadcast's text with its one button. */
const rendered: Record<FiveChannel, { text: (line: Line, text: string) => unknown; offer: (line: Line) => unknown }> = {
  slack: {
    text: (line, text) => ({ channel: line.user.split(':')[2], text }),
    offer: (line) => ({
      channel: line.user.split(':')[2],
      text: OFFER,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: OFFER } },
        { type: 'actions', elements: [{ type: 'button', action_id: 'button_0', text: { type: 'plain_text', text: 'Tell me more', emoji: true }, value: B_MORE }] },
      ],
    }),
  },
  sms: { text: (_line, text) => text, offer: () => `${OFFER}\n1. Tell me more` },
  chatwoot: {
    text: (_line, text) => ({ content: text, message_type: 'outgoing', private: false }),
    offer: () => ({ content: OFFER, message_type: 'outgoing', private: false, content_type: 'input_select', content_attributes: { items: [{ title: 'Tell me more', value: B_MORE }] } }),
  },
  instagram: {
    text: (_line, text) => ({ text }),
    offer: () => ({ text: OFFER, quick_replies: [{ content_type: 'text', title: 'Tell me more', payload: B_MORE }] }),
  },
  teams: {
    text: (_line, text) => ({ type: 'message', text }),
    offer: () => ({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.hero',
          content: { text: OFFER, buttons: [{ type: 'messageBack', title: 'Tell me more', displayText: 'Tell me more', text: 'Tell me more', value: B_MORE }] },
        },
      ],
    }),
  },
};

for (const kind of databaseKinds()) {
  describe(`deliveries on Slack, SMS, Chatwoot, Instagram and Teams (${kind})`, () => {
    let database: TestDatabase;
    let world: FiveChannels;
    let api: Broadcasts;
    before(async () => {
      database = await createTestDatabase(kind);
      world = await FiveChannels.start(database, promoBot());
      api = new Broadcasts(world.server, world.tenant);
    });
    after(async () => {
      await world.close();
      await database.drop();
    });

    /** A conversation on `channel` started by the user's "hi" and welcomed by the bot. */
    const started = async (channel: FiveChannel) => {
      const line = world.line(channel);
      await line.say('hi');
      await line.waitFor(2, `the welcome on ${channel}`);
      return line;
    };
    const broadcastTo = async (channel: FiveChannel, users: string[]) => {
      const created = await api.create({ Audience: { Channels: [channel], UserIds: users }, Variables: { promo_code: 'D41' } });
      // done (every recipient sent or skipped), then every sent one's delivery counted: the outbox
      // reports a platform's acceptance after the send, so Delivered can trail Sent for a moment
      const settled = (b: any) => b.Status === 'done' && b.Counts.Delivered + b.Counts.Failed + b.Counts.Skipped === b.Counts.Audience;
      return api.until(created.BroadcastId, settled, `the broadcast on ${channel} is done and delivered`);
    };

    for (const channel of FIVE_CHANNELS) {
      test(`${channel}: OPERATOR and BOT injections with CHANNEL, an operator's console message and a broadcast reach the platform`, async () => {
        const line = await started(channel);
        const { text, offer } = rendered[channel];
        assert.deepEqual(line.sent(), [text(line, 'Hello!'), text(line, 'What is your name?')]);

        const asOperator = await chatOk(world.server, world.tenant.botToken, { UserId: line.user, Text: 'This is Ann from support.' }, { CHANNEL: channel, DIRECTION: 'OPERATOR' });
        assert.deepEqual(
          asOperator.Parts.map((p: any) => [p.Type, p.Text]),
          [[0, 'This is Ann from support.']],
        );
        await line.waitFor(3, 'the operator injection');
        const asBot = await chatOk(world.server, world.tenant.botToken, { UserId: line.user, Text: 'Your order shipped.', Channel: channel.toUpperCase() }, { DIRECTION: 'BOT' });
        assert.deepEqual(
          asBot.Parts.map((p: any) => [p.Type, p.Text]),
          [[0, 'Your order shipped.']],
        );
        await line.waitFor(4, 'the bot injection');

        const broadcast = await broadcastTo(channel, [line.user]);
        assert.deepEqual(broadcast.Counts, { Audience: 1, Pending: 0, Sent: 1, Delivered: 1, Failed: 0, Skipped: 0, Clicked: 0, Reasons: {} });
        await line.waitFor(5, 'the broadcast');

        const email = `op-${channel}-${process.pid}@example.com`;
        await addOperator(world.server.client, world.tenant.accountId, email);
        const operator = consoleClient(world.server.client, await signIn(world.server.client, email));
        const where = operator.conversationPath(await botIdOf(world.server, world.tenant.botKey), line.user);
        assert.equal((await operator.post(`${where}/takeover`)).status, 200);
        assert.equal((await operator.post(`${where}/messages`, { Text: 'Ann again, taking it from here.' })).status, 200);
        await line.waitFor(6, "the console operator's message");

        assert.deepEqual(line.sent().slice(2), [text(line, 'This is Ann from support.'), text(line, 'Your order shipped.'), offer(line), text(line, 'Ann again, taking it from here.')]);
      });
    }

    test('a CHANNEL naming another channel than the conversation’s is 409 CHANNEL_MISMATCH and delivers nothing', async () => {
      const line = await started('teams');
      const res = await world.server.client.post('/custom/chat', { UserId: line.user, Text: 'lost?' }, { token: world.tenant.botToken, headers: { CHANNEL: 'slack', DIRECTION: 'OPERATOR' } });
      assert.deepEqual([res.status, res.body.Code], [409, 'CHANNEL_MISMATCH']);
      await chatOk(world.server, world.tenant.botToken, { UserId: line.user, Text: 'Still here.' }, { CHANNEL: 'teams', DIRECTION: 'OPERATOR' });
      await line.waitFor(3, 'the right injection');
      assert.deepEqual(line.sent().slice(2), [{ type: 'message', text: 'Still here.' }], 'the mismatched one was never sent');
    });

    test('sms: a number that sent STOP is left out of the audience (opted_out), the other gets the broadcast; START brings it back', async () => {
      const [stopped, kept] = [await started('sms'), await started('sms')];
      await stopped.say('STOP', { OptOutType: 'STOP' });
      await stopped.waitFor(3, 'the opt-out confirmation');
      assert.equal(stopped.sent()[2], 'You will not receive broadcasts from us any more. Send START to receive them again.');
      const audience = { Channels: ['sms'], UserIds: [stopped.user, kept.user] };
      assert.deepEqual(await api.preview(audience), { Count: 1, Sample: [kept.user] });
      const broadcast = await broadcastTo('sms', [stopped.user, kept.user]);
      assert.deepEqual(broadcast.Counts, { Audience: 1, Pending: 0, Sent: 1, Delivered: 1, Failed: 0, Skipped: 0, Clicked: 0, Reasons: {} });
      assert.deepEqual(kept.sent().slice(2), [`${OFFER}\n1. Tell me more`]);
      assert.equal(stopped.sent().length, 3, 'nothing after the confirmation');
      await stopped.say('START', { OptOutType: 'START' });
      await stopped.waitFor(4, 'the answer to START');
      // Twilio's OptOutType START sets the opt-out variable back first; the keyword still answers
      assert.equal(stopped.sent()[3], 'Welcome back: you will receive our broadcasts again.');
      assert.equal((await api.preview(audience)).Count, 2);
    });

    // Last: it moves the server's clock a day on, for every conversation of this server.
    test("instagram: outside Meta's 24-hour window the recipient is Skipped outside_window_no_tag; a recent one gets it", async () => {
      const old = await started('instagram');
      await world.move(25 * HOUR);
      const recent = await started('instagram');
      const broadcast = await broadcastTo('instagram', [old.user, recent.user]);
      assert.deepEqual(broadcast.Counts, { Audience: 2, Pending: 0, Sent: 1, Delivered: 1, Failed: 0, Skipped: 1, Clicked: 0, Reasons: { outside_window_no_tag: 1 } });
      assert.deepEqual(recent.sent().slice(2), [rendered.instagram.offer(recent)]);
      assert.deepEqual(old.sent().slice(2), [], 'nothing sent outside the window');
    });
  });
}
