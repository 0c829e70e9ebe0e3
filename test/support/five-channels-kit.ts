// One server with the five newer channels (channels-more.md) connected to one bot, each against its
// platform's double: Slack, SMS through Twilio, Chatwoot, Instagram (the Send API double of the
// Messenger tests) and Teams through the Bot Framework. Each channel has a `Line`: a way to start a
// conversation as the platform would (an inbound message) and to read what the platform accepted
// for it, so that one test can follow the same path on every channel.
import assert from 'node:assert/strict';
import { ChatwootDouble } from './chatwoot-double.js';
import type { TestDatabase } from './databases.js';
import { openRaw } from '../store/store-fixtures.js';
import { createTenant, type Tenant } from './fixtures.js';
import { MessengerDouble } from './messenger-double.js';
import { metaBytes, metaSignature } from './meta-webhook.js';
import { APP_SECRET, MessengerNotifications, PAGE_TOKEN } from './messenger-kit.js';
import { movableServer } from './broadcast-kit.js';
import type { TestServer } from './server.js';
import { SlackDouble } from './slack-double.js';
import { SIGNING_SECRET, signed, SLACK_BOT_TOKEN, SlackEvents, TEAM } from './slack-kit.js';
import { ACCOUNT_SID, AUTH_TOKEN, FROM, SmsMessages, twilioSignature } from './sms-kit.js';
import { TeamsDouble } from './teams-double.js';
import { TwilioDouble } from './twilio-double.js';

export type FiveChannel = 'slack' | 'sms' | 'chatwoot' | 'instagram' | 'teams';
export const FIVE_CHANNELS: FiveChannel[] = ['slack', 'sms', 'chatwoot', 'instagram', 'teams'];

const IG_ACCOUNT = '17841400000000002';
const CHATWOOT_TOKEN = 'cw-agent-bot-token-0123456789abcdef';
const CHATWOOT_ACCOUNT = '3';
const CHATWOOT_INBOX = 12;
const TEAMS_APP_ID = '5f0c2a7e-3b1d-4c8e-9a6f-0d2e4b6c8a10';
const TEAMS_PASSWORD = 'Qx8~teams.client.secret-for-tests_0123';
const TEAMS_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

/** A conversation on one channel: its Colloquy user id and what the platform accepted for it, in order. */
export interface Line {
  user: string;
  /** the messages as the platform received them (Slack's postMessage arguments, Twilio's Body, ...) */
  sent(): any[];
  /** the user writes `text` on the platform */
  say(text: string, extra?: Record<string, string>): Promise<void>;
  /** waits until the platform accepted `count` messages for this conversation */
  waitFor(count: number, what: string): Promise<void>;
}

export class FiveChannels {
  private n = 0;
  private readonly paths = new Map<FiveChannel, string>();
  private readonly slackEvents = new SlackEvents();
  private readonly sms = new SmsMessages();
  private readonly ig = new MessengerNotifications(IG_ACCOUNT);

  private constructor(
    readonly server: TestServer,
    readonly tenant: Tenant,
    private readonly database: TestDatabase,
    private readonly moveClock: (ms: number) => void,
    readonly slack: SlackDouble,
    readonly twilio: TwilioDouble,
    readonly chatwoot: ChatwootDouble,
    readonly graph: MessengerDouble,
    readonly teams: TeamsDouble,
  ) {}

  /** The doubles, a server on `database` whose clock the test moves, and `bot` connected on the five channels. */
  static async start(database: TestDatabase, bot: unknown): Promise<FiveChannels> {
    const [slack, twilio, chatwoot, graph, teams] = await Promise.all([
      SlackDouble.start(SLACK_BOT_TOKEN),
      TwilioDouble.start(ACCOUNT_SID, AUTH_TOKEN, FROM),
      ChatwootDouble.start(CHATWOOT_TOKEN),
      MessengerDouble.start(PAGE_TOKEN),
      TeamsDouble.start(TEAMS_APP_ID, TEAMS_PASSWORD),
    ]);
    const { server, move } = await movableServer(database, {
      COLLOQUY_SLACK_API_URL: slack.url,
      COLLOQUY_TWILIO_API_URL: twilio.url,
      COLLOQUY_META_GRAPH_URL: graph.url,
      COLLOQUY_BOTFRAMEWORK_OPENID_URL: teams.openIdUrl,
      COLLOQUY_BOTFRAMEWORK_TOKEN_URL: teams.tokenUrl,
      COLLOQUY_BOTFRAMEWORK_SERVICE_HOSTS: '127.0.0.1,*.botframework.com',
    });
    const tenant = await createTenant(server.client, bot);
    const world = new FiveChannels(server, tenant, database, move, slack, twilio, chatwoot, graph, teams);
    const credentials: Record<FiveChannel, Record<string, unknown>> = {
      slack: { BotToken: SLACK_BOT_TOKEN, SigningSecret: SIGNING_SECRET },
      sms: { AccountSid: ACCOUNT_SID, AuthToken: AUTH_TOKEN, From: FROM },
      chatwoot: { BaseUrl: `${chatwoot.url}/`, AccountId: Number(CHATWOOT_ACCOUNT), BotToken: CHATWOOT_TOKEN, InboxIds: [CHATWOOT_INBOX] },
      instagram: { InstagramAccountId: IG_ACCOUNT, PageAccessToken: PAGE_TOKEN, AppSecret: APP_SECRET },
      teams: { AppId: TEAMS_APP_ID, AppPassword: TEAMS_PASSWORD },
    };
    for (const channel of FIVE_CHANNELS) {
      const connected = await server.client.put(`/bots/${tenant.botKey}/channels/${channel}`, credentials[channel], { token: tenant.accountToken });
      assert.equal(connected.status, 200, connected.text);
      // Twilio signs the whole URL; the others are posted to by path
      world.paths.set(channel, channel === 'sms' ? connected.body.WebhookUrl : new URL(connected.body.WebhookUrl).pathname);
    }
    return world;
  }

  /**
   * Moves the server's clock by `ms`, once no delivery is in flight (claimed, not yet recorded): one
   * whose claim the jump ran out would be claimed again and sent twice (the outbox's claims are
   * times), which no real clock does. Read with a connection of its own: no repository lists them.
   */
  async move(ms: number): Promise<void> {
    const raw = await openRaw(this.database);
    try {
      const pending = async () => Number((await raw.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending' AND claimed_until > 0"))!.n);
      const deadline = Date.now() + 30_000;
      while ((await pending()) > 0) {
        if (Date.now() > deadline) assert.fail('deliveries still in flight after 30 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await raw.close();
    }
    this.moveClock(ms);
  }

  /** Closes the doubles first (a call one holds would hold the server's close), then checks what they were sent. */
  async close(): Promise<void> {
    const doubles = [this.slack, this.twilio, this.chatwoot, this.graph, this.teams];
    await Promise.all(doubles.map((d) => d.close()));
    await this.server.close();
    for (const d of doubles) d.assertNoViolations();
  }

  /** A new conversation on `channel`, not started yet: `say` starts it. */
  line(channel: FiveChannel): Line {
    const n = ++this.n;
    const id = `${process.pid % 100_000}${String(n).padStart(3, '0')}`;
    const lines: Record<FiveChannel, () => Line> = {
      slack: () => this.slackLine(`D0${id}`),
      sms: () => this.smsLine(`+1415${id.padStart(7, '0').slice(-7)}`),
      chatwoot: () => this.chatwootLine(Number(id)),
      instagram: () => this.instagramLine(String(6_000_000_000_000 + Number(id))),
      teams: () => this.teamsLine(`a:1${id}Teams-Personal_Chat`),
    };
    return lines[channel]();
  }

  private post(channel: FiveChannel, raw: string, contentType: string, headers: Record<string, string>) {
    const target = this.paths.get(channel)!;
    return this.server.client.post(channel === 'sms' ? new URL(target).pathname : target, undefined, { raw, contentType, headers });
  }

  private async accepted(channel: FiveChannel, request: Promise<{ status: number; text: string }>): Promise<void> {
    const res = await request;
    assert.equal(res.status, 200, `${channel} webhook: ${res.text}`);
  }

  private slackLine(dm: string): Line {
    const sent = () => this.slack.postsTo(dm);
    return {
      user: `slack:${TEAM}:${dm}`,
      sent,
      say: (text) => {
        const request = signed(JSON.stringify(this.slackEvents.callback(this.slackEvents.dm(dm, text))), 'application/json');
        return this.accepted('slack', this.post('slack', request.raw, request.contentType, request.headers));
      },
      waitFor: (count, what) => this.slack.waitFor(() => sent().length >= count, what),
    };
  }

  private smsLine(phone: string): Line {
    const sent = () => this.twilio.bodiesTo(phone);
    return {
      user: `sms:${phone}`,
      sent,
      say: (text, extra = {}) => {
        const fields = this.sms.message(phone, text, extra);
        const signature = twilioSignature(this.paths.get('sms')!, fields);
        return this.accepted('sms', this.post('sms', new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', { 'x-twilio-signature': signature }));
      },
      waitFor: (count, what) => this.twilio.waitFor(() => sent().length >= count, what),
    };
  }

  private chatwootLine(conversation: number): Line {
    const sent = () => this.chatwoot.messagesIn(CHATWOOT_ACCOUNT, String(conversation));
    const account = Number(CHATWOOT_ACCOUNT);
    return {
      user: `chatwoot:${CHATWOOT_ACCOUNT}:${conversation}`,
      sent,
      say: (content) => {
        const event = {
          event: 'message_created',
          id: 50_000 + ++this.n,
          content,
          created_at: new Date().toISOString(),
          message_type: 'incoming',
          content_type: 'text',
          content_attributes: {},
          source_id: null,
          private: false,
          sender: { id: 42, name: 'Alice Martin', email: 'alice@example.com', type: 'contact' },
          conversation: { id: conversation + 900_000, display_id: conversation, inbox_id: CHATWOOT_INBOX, status: 'pending', account_id: account },
          account: { id: account, name: 'Shop' },
          inbox: { id: CHATWOOT_INBOX, name: 'Website' },
        };
        return this.accepted('chatwoot', this.post('chatwoot', JSON.stringify(event), 'application/json', {}));
      },
      waitFor: (count, what) => this.chatwoot.waitFor(() => sent().length >= count, what),
    };
  }

  private instagramLine(igsid: string): Line {
    const sent = () => this.graph.messagesTo(igsid);
    return {
      user: `instagram:${igsid}`,
      sent,
      say: (text) => {
        const raw = metaBytes({ object: 'instagram', entry: [{ id: IG_ACCOUNT, time: Date.now(), messaging: [this.ig.text(igsid, text)] }] });
        return this.accepted('instagram', this.post('instagram', raw, 'application/json', { 'x-hub-signature-256': metaSignature(raw, APP_SECRET) }));
      },
      waitFor: (count, what) => this.graph.waitFor(() => sent().length >= count, what),
    };
  }

  private teamsLine(conversation: string): Line {
    const sent = () => this.teams.activitiesTo(conversation).filter((a) => a.type === 'message');
    return {
      user: `teams:${conversation}`,
      sent,
      say: async (text) => {
        const activity = {
          type: 'message',
          id: `${Date.now()}${++this.n}`,
          timestamp: new Date().toISOString(),
          serviceUrl: this.teams.serviceUrl,
          channelId: 'msteams',
          from: { id: `29:1user-${conversation}`, name: 'Ada Lovelace', aadObjectId: '00000000-0000-4000-8000-000000000001' },
          conversation: { conversationType: 'personal', tenantId: TEAMS_TENANT, id: conversation },
          recipient: { id: `28:${TEAMS_APP_ID}`, name: 'Shop' },
          textFormat: 'plain',
          locale: 'en-US',
          channelData: { tenant: { id: TEAMS_TENANT } },
          text,
        };
        const bearer = await this.teams.token(activity);
        return this.accepted('teams', this.post('teams', JSON.stringify(activity), 'application/json', { authorization: `Bearer ${bearer}` }));
      },
      waitFor: (count, what) => this.teams.waitFor(() => sent().length >= count, what),
    };
  }
}
