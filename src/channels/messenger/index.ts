// Facebook Messenger (channels.md): a Page connected by pasting the WebhookUrl and VerifyToken into
// the Meta app's Messenger settings; notifications arrive signed with the app secret; replies are
// Send API calls (`POST {graph}/me/messages`, bearer = the Page access token) made by the
// dispatcher. What Messenger shares with WhatsApp (connect checks, signature, handshake, the Graph
// call and its error classes) lives in channels/meta.
import type { ReplyPart } from '../../engine/types.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import type { Connected, InboundRequest, MessagingPlatform } from '../messaging/platform.js';
import { connectMeta, metaConnectForm } from '../meta/connect.js';
import { graphPost } from '../meta/graph.js';
import { metaChallenge, verifyMetaSignature } from '../meta/webhook.js';
import { parseMessenger } from './parse.js';
import { renderMessenger } from './render.js';

export class MessengerPlatform implements MessagingPlatform {
  /** Instagram speaks the same Send API and webhooks (channels/instagram extends this class) */
  readonly channel: 'messenger' | 'instagram' = 'messenger';
  readonly connectForm = metaConnectForm(
    'Messenger',
    'You need a Facebook Page and a Meta app with the Messenger product (developers.facebook.com).',
    { name: 'PageId', label: 'Page ID', help: "The Facebook Page's id (Page → About → Page transparency).", maxLength: 64 },
    { name: 'PageAccessToken', label: 'Page access token', help: 'Messenger → Settings → Access tokens: generate one for the Page.', secret: true, maxLength: 1024 },
  );

  constructor(protected readonly graphUrl: string) {}

  async connect(body: Record<string, unknown>): Promise<Connected> {
    return connectMeta(body, { account: 'PageId', token: 'PageAccessToken' });
  }

  async disconnect(): Promise<void> {
    // Nothing was set up at Meta: the subscription lives in the app dashboard, and the erased
    // credentials with the dead webhook path are enough.
  }

  verify(request: InboundRequest, credentials: Credentials): boolean {
    return verifyMetaSignature(request, credentials.appSecret);
  }

  challenge(query: Record<string, string>, credentials: Credentials): string | null {
    return metaChallenge(query, credentials.verifyToken);
  }

  parse(body: unknown, account: string | null): InboundEvent[] {
    return parseMessenger(body, account);
  }

  render(parts: ReplyPart[], psid: string): PlatformCall[] {
    return renderMessenger(parts, psid);
  }

  send(call: PlatformCall, credentials: Credentials): Promise<SendResult> {
    return graphPost(this.graphUrl, call.method, credentials.accessToken, call.params);
  }
}
