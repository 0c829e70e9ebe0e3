// Messenger webhook notifications as Meta sends them (Messenger Platform webhook reference:
// `{object: "page", entry: [{id, time, messaging: [...]}]}`); meta-webhook.ts encodes and signs
// them as Meta does. And the shop bot the Messenger tests talk to.
import { botFile, text } from './chat-kit.js';

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
