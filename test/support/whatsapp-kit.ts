// The WhatsApp end-to-end tests' shared pieces: a shop bot, a connected channel, and Meta's
// `messages` webhook shapes (WhatsApp "messages webhook reference": text, interactive
// button_reply / list_reply, media, statuses), sent signed as Meta sends them.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { botFile, text } from './chat-kit.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { createTenant, type Tenant } from './fixtures.js';
import { metaBytes, metaSignature } from './meta-webhook.js';
import { startTestServerOn, type TestServer } from './server.js';
import { WhatsAppDouble } from './whatsapp-double.js';

export const B_CARDS = '7a1c2a1e-0d4b-4d8e-9a57-0000000000b1';
export const B_MEDIA = '7a1c2a1e-0d4b-4d8e-9a57-0000000000b2';
export const B_LIST = '7a1c2a1e-0d4b-4d8e-9a57-0000000000b3';
export const C_CAT = '7a1c2a1e-0d4b-4d8e-9a57-0000000000b4';
export const ROWS = ['7a1c2a1e-0d4b-4d8e-9a57-0000000000c1', '7a1c2a1e-0d4b-4d8e-9a57-0000000000c2', '7a1c2a1e-0d4b-4d8e-9a57-0000000000c3', '7a1c2a1e-0d4b-4d8e-9a57-0000000000c4'];
export const IMAGE = 'https://cdn.example.com/cat.png';

const goTo = (interaction: string) => [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction }];
const row = (i: number, title: string, said: string) => ({ type: 'button', id: ROWS[i], text: title, onClick: [text(said)] });

export const shopBot = () =>
  botFile(
    [
      {
        name: 'Welcome',
        actions: [
          text('Welcome, {{name}}!'),
          {
            type: 'buttons',
            text: 'What do you need?',
            buttons: [
              { type: 'button', id: B_CARDS, text: 'Catalogue', onClick: goTo('Cards') },
              { type: 'button', id: B_MEDIA, text: 'Pictures, files and more', onClick: goTo('Media') },
              { type: 'button', id: B_LIST, text: 'Sizes', onClick: goTo('Sizes') },
              { type: 'link', text: 'Our site', url: 'https://example.com/' },
            ],
          },
        ],
      },
      { name: 'Sorry', fallback: true, actions: [text('You said: {{last_user_text}}')] },
      {
        name: 'Cards',
        actions: [
          {
            type: 'carousel',
            cards: [
              { title: 'Cat', subtitle: 'A fine cat', imageUrl: IMAGE, buttons: [{ type: 'button', id: C_CAT, text: 'Take the cat', onClick: [text('The cat is yours.')] }] },
              { title: 'Dog', buttons: [{ type: 'link', text: 'Read more about dogs today', url: 'https://example.com/dog' }] },
            ],
          },
        ],
      },
      {
        name: 'Sizes',
        actions: [
          {
            type: 'buttons',
            text: 'Pick a size',
            buttons: [row(0, 'Small', 'Small it is.'), row(1, 'Medium', 'Medium it is.'), row(2, 'Large', 'Large it is.'), row(3, 'Extra large, for the whole family', 'Family size it is.')],
          },
        ],
      },
      {
        name: 'Media',
        actions: [
          { type: 'image', url: IMAGE, caption: 'A picture' },
          { type: 'audio', url: 'https://cdn.example.com/song.mp3', caption: 'A song' },
          { type: 'delay', ms: 300 },
          { type: 'file', url: 'https://cdn.example.com/terms.pdf', caption: 'Terms' },
          text('x'.repeat(5000)),
        ],
      },
    ],
    { name: 'Shop' },
  );

export interface SendOptions {
  /** the X-Hub-Signature-256 header as is ('' for none) */
  signature?: string;
  /** sign with another app secret */
  secret?: string;
  /** sign Meta's bytes but send the JSON re-encoded (other bytes) */
  reencoded?: boolean;
}

let sequence = 0;

export class WhatsAppKit {
  readonly phoneNumberId = `10${100000 + ++sequence}`;
  readonly accessToken = `EAAGtest${'Q'.repeat(40)}${sequence}`;
  readonly appSecret = `app-secret-${sequence}-0123456789abcdef`;
  webhookPath = '';
  verifyToken = '';
  private users = 0;
  private messages = 0;

  private constructor(
    private readonly server: TestServer,
    private readonly tenant: Tenant,
    readonly wa: WhatsAppDouble,
  ) {}

  static async connect(server: TestServer, tenant: Tenant, wa: WhatsAppDouble): Promise<WhatsAppKit> {
    const kit = new WhatsAppKit(server, tenant, wa);
    wa.numbers.set(kit.phoneNumberId, kit.accessToken);
    const connected = await server.client.put(
      `/bots/${tenant.botKey}/channels/whatsapp`,
      { PhoneNumberId: kit.phoneNumberId, AccessToken: kit.accessToken, AppSecret: kit.appSecret },
      { token: tenant.accountToken },
    );
    assert.equal(connected.status, 200, connected.text);
    kit.webhookPath = new URL(connected.body.WebhookUrl).pathname;
    kit.verifyToken = connected.body.VerifyToken;
    return kit;
  }

  /** A new WhatsApp user: their wa_id (a phone number in digits). */
  newUser(): string {
    return `4915${String(this.phoneNumberId).slice(-4)}${String(++this.users).padStart(4, '0')}`;
  }

  /** A `messages` webhook for one message of `user` (the content fields given). */
  message(user: string, content: Record<string, unknown>, phoneNumberId = this.phoneNumberId): any {
    const id = `wamid.HBgN${Buffer.from(`${this.phoneNumberId}-${++this.messages}`).toString('base64url')}`;
    return this.envelope(phoneNumberId, {
      contacts: [{ profile: { name: 'Zoë' }, wa_id: user }],
      messages: [{ from: user, id, timestamp: String(1700000000 + this.messages), ...content }],
    });
  }

  text(user: string, body: string, phoneNumberId?: string): any {
    return this.message(user, { type: 'text', text: { body } }, phoneNumberId);
  }

  buttonReply(user: string, id: string, title: string): any {
    return this.message(user, { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id, title } } });
  }

  listReply(user: string, id: string, title: string): any {
    return this.message(user, { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id, title, description: '' } } });
  }

  /** A delivery status of a message the bot sent. */
  status(user: string, messageId: string): any {
    return this.envelope(this.phoneNumberId, { statuses: [{ id: messageId, status: 'delivered', timestamp: '1700000000', recipient_id: user }] });
  }

  send(body: unknown, options: SendOptions = {}) {
    const raw = metaBytes(body);
    const signature = options.signature ?? metaSignature(raw, options.secret ?? this.appSecret);
    return this.server.client.post(this.webhookPath, undefined, {
      raw: options.reencoded ? JSON.stringify(body) : raw,
      headers: signature === '' ? {} : { 'x-hub-signature-256': signature },
    });
  }

  async values(user: string): Promise<Record<string, string>> {
    const v = (await this.server.client.get(`/custom/values?userid=whatsapp:${user}`, { token: this.tenant.botToken })).body;
    return Object.fromEntries((v.Variables ?? []).map((x: any) => [x.Name, x.Value]));
  }

  private envelope(phoneNumberId: string, value: Record<string, unknown>): any {
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [{ value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, ...value }, field: 'messages' }],
        },
      ],
    };
  }
}

export interface WhatsAppSuite {
  wa: WhatsAppDouble;
  database: TestDatabase;
  server: TestServer;
  tenant: Tenant;
  kit: WhatsAppKit;
}

/** Inside a describe: a Cloud API double, a server pointed at it, and the shop bot connected. */
export function whatsAppSuite(kind: DatabaseKind): WhatsAppSuite {
  const suite = {} as WhatsAppSuite;
  before(async () => {
    suite.wa = await WhatsAppDouble.start();
    suite.database = await createTestDatabase(kind);
    suite.server = await startTestServerOn(suite.database, { COLLOQUY_META_GRAPH_URL: suite.wa.graphUrl });
    suite.tenant = await createTenant(suite.server.client, shopBot());
    suite.kit = await WhatsAppKit.connect(suite.server, suite.tenant, suite.wa);
  });
  after(async () => {
    // Closed before asserting, so a failure ends the run instead of leaving the server up. The
    // double first: a call left hanging would otherwise hold the server's close for 10 s.
    const violations = [...suite.wa.violations];
    await suite.wa.close();
    await suite.server.close();
    await suite.database.drop();
    assert.deepEqual(violations, [], 'every Cloud API call had the documented shape');
  });
  return suite;
}
