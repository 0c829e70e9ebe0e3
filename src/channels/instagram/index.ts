// Instagram (channels-more.md): an Instagram professional account linked to a Facebook Page,
// connected as Messenger is (WebhookUrl and VerifyToken pasted into the Meta app, notifications
// signed with the app secret: the same checks, handshake and Graph calls, inherited), and answered
// through the same Send API (`POST {graph}/me/messages` with the Page access token). What differs is
// Instagram's: `object: "instagram"` webhooks, texts of at most 1000 characters, buttons as quick
// replies (no button template).
import type { ReplyPart } from '../../engine/types.js';
import type { InboundEvent, PlatformCall } from '../messaging/model.js';
import type { Connected } from '../messaging/platform.js';
import { connectMeta, metaConnectForm } from '../meta/connect.js';
import { MessengerPlatform } from '../messenger/index.js';
import { parseMessenger } from '../messenger/parse.js';
import { renderMessenger } from '../messenger/render.js';

const INSTAGRAM = { text: 1000, buttonTemplate: false };

export class InstagramPlatform extends MessengerPlatform {
  override readonly channel = 'instagram' as const;
  override readonly connectForm = metaConnectForm(
    'Instagram',
    'You need an Instagram professional account linked to a Facebook Page, and a Meta app with the Instagram product.',
    { name: 'InstagramAccountId', label: 'Instagram account ID', help: "The professional account's id (Instagram → API setup in the Meta app).", maxLength: 64 },
    { name: 'PageAccessToken', label: 'Page access token', help: 'A token of the Facebook Page the Instagram account is linked to.', secret: true, maxLength: 1024 },
  );

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
