// Messenger webhook notifications as Meta sends them (Messenger Platform webhook reference:
// `{object: "page", entry: [{id, time, messaging: [...]}]}`); meta-webhook.ts encodes and signs
// them as Meta does. The shop bot the Messenger and Instagram tests talk to, and their world: the
// Send API double, a server pointed at it, the bot connected, and a webhook POST as Meta makes it.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { botFile, text } from './chat-kit.js';
import type { Response } from './client.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { createTenant, type Tenant } from './fixtures.js';
import { MessengerDouble } from './messenger-double.js';
import { metaBytes, metaSignature } from './meta-webhook.js';
import { startTestServerOn, type TestServer } from './server.js';

export const B_CARDS = '7a2d3b2f-1e5c-4e9f-8b68-0000000000b1';
export const B_MEDIA = '7a2d3b2f-1e5c-4e9f-8b68-0000000000b2';
export const C_CAT = '7a2d3b2f-1e5c-4e9f-8b68-0000000000b3';
export const SIZES = ['S', 'M', 'L', 'XL', 'XXL'].map((s, i) => ({ label: s, id: `7a2d3b2f-1e5c-4e9f-8b68-00000000010${i}` }));
export const PAGE_ID = '104857600123456';
export const PAGE_TOKEN = 'EAAGm0PX4ZCpsBAPageAccessTokenForTests0123456789';
export const APP_SECRET = 'a3f1c9e27b8d4e6fa0b1c2d3e4f50617';
export const IMAGE = 'https://cdn.example.com/cat.png';

/** A shop bot whose flow shows every part type the Messenger column of channels.md renders. */
export const shopBot = () =>
  botFile(
    [
      {
        name: 'Welcome',
        actions: [
          text('Welcome to the shop!'),
          {
            type: 'buttons',
            text: 'What do you need?',
            buttons: [
              { type: 'button', id: B_CARDS, text: 'Catalogue', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Cards' }] },
              { type: 'button', id: B_MEDIA, text: 'Files', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Media' }] },
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
              {
                title: 'Cat',
                subtitle: 'A fine cat',
                imageUrl: IMAGE,
                buttons: [{ type: 'button', id: C_CAT, text: 'Take the cat', onClick: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Sizes' }] }],
              },
              { title: 'Dog', buttons: [{ type: 'link', text: 'Read more', url: 'https://example.com/dog' }] },
            ],
          },
        ],
      },
      {
        name: 'Sizes',
        actions: [
          {
            type: 'buttons',
            text: 'Which size?',
            buttons: [
              ...SIZES.map((s) => ({ type: 'button', id: s.id, text: `Size ${s.label} please, thank you`, onClick: [text(`Size ${s.label} it is.`)] })),
              { type: 'link', text: 'Size guide', url: 'https://example.com/sizes' },
            ],
          },
        ],
      },
      {
        name: 'Media',
        actions: [
          { type: 'image', url: IMAGE, caption: 'A picture' },
          { type: 'delay', ms: 400 },
          { type: 'file', url: 'https://cdn.example.com/terms.pdf', caption: 'Terms' },
          text('x'.repeat(4500)),
        ],
      },
    ],
    { name: 'Shop' },
  );

export class MessengerNotifications {
  private mid = 0;

  constructor(readonly pageId: string) {}

  /** One notification carrying these `messaging` items. */
  notification(...messaging: unknown[]) {
    return this.forPage(this.pageId, ...messaging);
  }

  /** A notification for another Page subscribed to the same Meta app. */
  forPage(pageId: string, ...messaging: unknown[]) {
    return { object: 'page', entry: [{ id: pageId, time: Date.now(), messaging }] };
  }

  private item(psid: string, extra: Record<string, unknown>) {
    return { sender: { id: psid }, recipient: { id: this.pageId }, timestamp: Date.now(), ...extra };
  }

  nextMid = () => `m_${process.pid}_${++this.mid}`;

  text(psid: string, text: string, mid = this.nextMid()) {
    return this.item(psid, { message: { mid, text } });
  }

  /** A tapped quick reply: a text message with the reply's title and `quick_reply.payload`. */
  quickReply(psid: string, title: string, payload: string) {
    return this.item(psid, { message: { mid: this.nextMid(), text: title, quick_reply: { payload } } });
  }

  /** A tapped postback button (button template, generic template element). */
  postback(psid: string, title: string, payload: string) {
    return this.item(psid, { postback: { mid: this.nextMid(), title, payload } });
  }

  attachment(psid: string, type: string, payload: Record<string, unknown>) {
    return this.item(psid, { message: { mid: this.nextMid(), attachments: [{ type, payload }] } });
  }

  /** What Meta also sends and that asks nothing: the page's own message echoed, delivery and read receipts. */
  noise(psid: string) {
    return [
      { sender: { id: this.pageId }, recipient: { id: psid }, timestamp: Date.now(), message: { mid: this.nextMid(), is_echo: true, app_id: 1517776481860111, text: 'echo' } },
      this.item(psid, { delivery: { mids: ['m_x'], watermark: Date.now() } }),
      this.item(psid, { read: { watermark: Date.now() } }),
    ];
  }
}

export interface MetaChannelWorld {
  graph: MessengerDouble;
  database: TestDatabase;
  server: TestServer;
  tenant: Tenant;
  /** the connect answer's body */
  connected: Record<string, unknown>;
  webhookPath: string;
  verifyToken: string;
  /** POSTs a notification as Meta does: Meta's JSON bytes, signed with the app secret (or `signature`; null: unsigned). */
  post(body: unknown, signature?: string | null): Promise<Response>;
}

/**
 * Inside a describe: the Send API double (Messenger and Instagram speak the same Send API), a
 * server on `kind` pointed at it, the shop bot connected on `channel` with `credentials` (its
 * answer holds exactly Channel, Enabled, VerifyToken and WebhookUrl); all closed after, the
 * double first (a call it holds would otherwise hold the server's close) and checked for calls
 * that break the documented shapes. Read the fields inside hooks and tests.
 */
export function metaChannelWorld(kind: DatabaseKind, channel: 'messenger' | 'instagram', credentials: Record<string, string>): MetaChannelWorld {
  const world = {} as MetaChannelWorld;
  world.post = (body, signature) => {
    const raw = metaBytes(body);
    const headers: Record<string, string> = signature === null ? {} : { 'x-hub-signature-256': signature ?? metaSignature(raw, APP_SECRET) };
    return world.server.client.post(world.webhookPath, undefined, { raw, headers });
  };
  before(async () => {
    world.graph = await MessengerDouble.start(PAGE_TOKEN);
    world.database = await createTestDatabase(kind);
    world.server = await startTestServerOn(world.database, { COLLOQUY_META_GRAPH_URL: world.graph.url });
    world.tenant = await createTenant(world.server.client, shopBot());
    const connected = await world.server.client.put(`/bots/${world.tenant.botKey}/channels/${channel}`, credentials, { token: world.tenant.accountToken });
    assert.equal(connected.status, 200, connected.text);
    assert.deepEqual(Object.keys(connected.body).sort(), ['Channel', 'Enabled', 'VerifyToken', 'WebhookUrl']);
    world.connected = connected.body;
    world.webhookPath = new URL(connected.body.WebhookUrl).pathname;
    world.verifyToken = connected.body.VerifyToken;
  });
  after(async () => {
    world.graph.assertNoViolations();
    await world.graph.close();
    await world.server.close();
    await world.database.drop();
  });
  return world;
}
