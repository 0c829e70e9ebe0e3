// WhatsApp Cloud API (channels.md): connected by pasting WebhookUrl and VerifyToken into the Meta
// app dashboard; messages arrive on the app's webhook signed with the app secret; replies are
// Graph API calls to `<phone-number-id>/messages` with the access token (src/channels/meta/).
import type { ReplyPart } from '../../engine/types.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import type { Connected, InboundRequest, MessagingPlatform } from '../messaging/platform.js';
import { connectMeta, metaConnectForm } from '../meta/connect.js';
import { graphPost } from '../meta/graph.js';
import { metaChallenge, verifyMetaSignature } from '../meta/webhook.js';
import { parseWhatsApp } from './parse.js';
import { MESSAGES_PATH, renderWhatsApp } from './render.js';

export class WhatsAppPlatform implements MessagingPlatform {
  readonly channel = 'whatsapp' as const;
  readonly connectForm = metaConnectForm(
    'WhatsApp',
    'You need a Meta app with the WhatsApp product and a business phone number (developers.facebook.com).',
    { name: 'PhoneNumberId', label: 'Phone number ID', help: 'WhatsApp → API Setup: the number under "Phone number ID".', maxLength: 64 },
    { name: 'AccessToken', label: 'Access token', help: 'A permanent token of a system user with the whatsapp_business_messaging permission.', secret: true, maxLength: 1024 },
  );

  constructor(private readonly graphUrl: string) {}

  async connect(body: Record<string, unknown>): Promise<Connected> {
    return connectMeta(body, { account: 'PhoneNumberId', token: 'AccessToken' });
  }

  /** Nothing was set up at Meta: the webhook stays in the app dashboard, and now answers 404. */
  async disconnect(): Promise<void> {}

  verify(request: InboundRequest, credentials: Credentials): boolean {
    return verifyMetaSignature(request, credentials.appSecret);
  }

  challenge(query: Record<string, string>, credentials: Credentials): string | null {
    return metaChallenge(query, credentials.verifyToken);
  }

  parse(body: unknown, account: string | null): InboundEvent[] {
    return parseWhatsApp(body, account);
  }

  render(parts: ReplyPart[], recipient: string): PlatformCall[] {
    return renderWhatsApp(parts, recipient);
  }

  /** A template message (Cloud API "template" object): its body parameters as texts, in order. */
  template(t: { name: string; language: string; parameters: string[] }, recipient: string): PlatformCall {
    const components = t.parameters.length > 0 ? [{ type: 'body', parameters: t.parameters.map((text) => ({ type: 'text', text })) }] : undefined;
    return {
      method: MESSAGES_PATH,
      params: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: recipient,
        type: 'template',
        template: { name: t.name, language: { code: t.language }, ...(components ? { components } : {}) },
      },
    };
  }

  async send(call: PlatformCall, credentials: Credentials, context: { account: string | null; lastInboundId: string | null }): Promise<SendResult> {
    if (!context.account) return { ok: false, retry: false, statusCode: null, error: 'WhatsApp: the connection has no phone number id' };
    const params = call.onLastInbound ? { ...call.params, message_id: context.lastInboundId } : call.params;
    return graphPost(this.graphUrl, `${context.account}/${call.method}`, credentials.accessToken, params);
  }
}
