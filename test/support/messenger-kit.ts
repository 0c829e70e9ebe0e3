// Messenger webhook notifications as Meta sends them (Messenger Platform webhook reference:
// `{object: "page", entry: [{id, time, messaging: [...]}]}`), signed the way Meta signs them:
// `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, key = the app secret>`.
import crypto from 'node:crypto';

export const sign = (raw: string, appSecret: string) => `sha256=${crypto.createHmac('sha256', appSecret).update(raw).digest('hex')}`;

export class MessengerNotifications {
  private mid = 0;

  constructor(readonly pageId: string) {}

  /** One notification carrying these `messaging` items. */
  notification(...messaging: unknown[]) {
    return { object: 'page', entry: [{ id: this.pageId, time: Date.now(), messaging }] };
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
