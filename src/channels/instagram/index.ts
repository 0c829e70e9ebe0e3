// Instagram (channels-more.md): an Instagram professional account linked to a Facebook Page,
// connected as Messenger is (WebhookUrl and VerifyToken pasted into the Meta app, notifications
// signed with the app secret: the same checks, handshake and Graph calls, inherited), and answered
// through the same Send API (`POST {graph}/me/messages` with the Page access token). What differs is
// Instagram's: `object: "instagram"` webhooks, texts of at most 1000 characters, buttons as quick
// replies (no button template).
import type { ReplyPart } from '../../engine/types.js';
import type { InboundEvent, PlatformCall } from '../messaging/model.js';
import type { Connected } from '../messaging/platform.js';
import { connectMeta } from '../meta/connect.js';
import { MessengerPlatform } from '../messenger/index.js';
import { parseMessenger } from '../messenger/parse.js';
import { renderMessenger } from '../messenger/render.js';

const INSTAGRAM = { text: 1000, buttonTemplate: false };

export class InstagramPlatform extends MessengerPlatform {
  override readonly channel = 'instagram' as const;

  override async connect(body: Record<string, unknown>): Promise<Connected> {
    return connectMeta(body, { account: 'InstagramAccountId', token: 'PageAccessToken' });
  }

  override parse(body: unknown, account: string | null): InboundEvent[] {
    return parseMessenger(body, account, 'instagram');
  }

  override render(parts: ReplyPart[], igsid: string): PlatformCall[] {
    return renderMessenger(parts, igsid, INSTAGRAM);
  }
}
