// Microsoft Teams through the Bot Framework (channels-more.md): an Azure Bot connected with its
// app id and password (TenantId for a single-tenant bot); activities arrive with a JWT the Bot
// Framework signed (auth.ts), each conversation's replies go to the serviceUrl its verified
// activities named (kept with the conversation as its reply address), with a token bought with
// the app's credentials (connector.ts).
import type { BotFrameworkConfig } from '../../config.js';
import type { ReplyPart } from '../../engine/types.js';
import { AppError } from '../../shared/errors.js';
import type { ConnectForm } from '../messaging/connect-form.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import type { Connected, InboundRequest, MessagingPlatform } from '../messaging/platform.js';
import { BotFrameworkAuth, hostAllowed } from './auth.js';
import { BotConnector, requestToken } from './connector.js';
import { parseTeams } from './parse.js';
import { renderTeams } from './render.js';

/** Azure app ids and tenant ids are GUIDs. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SECRET_LENGTH = 1024;

export class TeamsPlatform implements MessagingPlatform {
  readonly channel = 'teams' as const;
  readonly connectForm: ConnectForm = {
    title: 'Microsoft Teams',
    intro: 'Register an Azure Bot (portal.azure.com) and give it the webhook URL shown here as its messaging endpoint; then add the Teams channel to it.',
    fields: [
      { name: 'AppId', label: 'Microsoft App ID', help: 'Azure Bot → Configuration: the Microsoft App ID.', maxLength: 64 },
      { name: 'AppPassword', label: 'App password (client secret)', help: "The app registration's Certificates & secrets: a client secret's value.", secret: true, maxLength: 1024 },
      { name: 'TenantId', label: 'Tenant ID', help: 'Only for a single-tenant bot: the directory (tenant) ID.', optional: true, maxLength: 64 },
    ],
  };
  private readonly auth: BotFrameworkAuth;
  private readonly connector: BotConnector;

  constructor(private readonly config: BotFrameworkConfig) {
    this.auth = new BotFrameworkAuth(config);
    this.connector = new BotConnector(config.tokenUrl);
  }

  async connect(body: Record<string, unknown>): Promise<Connected> {
    for (const name of ['AppId', 'AppPassword']) {
      const value = body[name];
      if (value === undefined || value === null || value === '') throw new AppError('MISSING_FIELD', `${name} is required.`, { Field: name });
      if (typeof value !== 'string' || value.length > MAX_SECRET_LENGTH) throw new AppError('INVALID_REQUEST', `${name} must be the value the Azure portal shows.`);
    }
    const tenantId = body.TenantId === undefined || body.TenantId === null || body.TenantId === '' ? undefined : body.TenantId;
    if (!GUID.test(body.AppId as string)) throw new AppError('INVALID_REQUEST', "AppId must be the bot's Microsoft App ID (a GUID).");
    if (tenantId !== undefined && (typeof tenantId !== 'string' || !GUID.test(tenantId))) throw new AppError('INVALID_REQUEST', 'TenantId must be the directory (tenant) id, a GUID.');
    const credentials: Credentials = { appId: (body.AppId as string).toLowerCase(), appPassword: body.AppPassword as string, ...(tenantId ? { tenantId: tenantId.toLowerCase() } : {}) };
    const token = await requestToken(this.config.tokenUrl, credentials);
    if (!token.ok) throw new AppError('CHANNEL_REJECTED', 'Microsoft refused the app id and password.', { Description: token.reason });
    return { credentials, account: credentials.appId, reply: { Account: credentials.appId } };
  }

  async disconnect(credentials: Credentials): Promise<void> {
    // The messaging endpoint lives in the Azure Bot's configuration; the dead webhook path is enough.
    this.connector.forget(credentials);
  }

  /** The bearer token of the Bot Framework, for this app, naming this activity's serviceUrl (auth.ts). */
  verify(request: InboundRequest, credentials: Credentials): Promise<boolean> {
    let activity: { serviceUrl?: unknown; channelId?: unknown } | undefined;
    try {
      const parsed: unknown = JSON.parse(request.rawBody.toString('utf8'));
      activity = typeof parsed === 'object' && parsed !== null ? (parsed as { serviceUrl?: unknown; channelId?: unknown }) : {};
    } catch {
      activity = undefined;
    }
    return this.auth.verify(request.headers.authorization, credentials.appId, activity);
  }

  parse(body: unknown, _account: string | null, credentials: Credentials): InboundEvent[] {
    return parseTeams(body, credentials);
  }

  render(parts: ReplyPart[], conversationId: string): PlatformCall[] {
    return renderTeams(parts).map((call) => ({ ...call, params: { conversationId, activity: call.params }, toReplyAddress: true }));
  }

  async send(call: PlatformCall, credentials: Credentials, context: { replyAddress: string | null }): Promise<SendResult> {
    const { conversationId, activity } = call.params as { conversationId: string; activity: Record<string, unknown> };
    const serviceUrl = context.replyAddress;
    if (serviceUrl === null) return { ok: false, retry: false, statusCode: null, error: 'Teams: the conversation has not written to the bot yet (no verified serviceUrl to answer at)' };
    // The allow-list may have changed since the activity was verified: a host no longer allowed gets nothing.
    if (!hostAllowed(serviceUrl, this.config.serviceHosts)) return { ok: false, retry: false, statusCode: null, error: `Teams: the serviceUrl host ${hostOf(serviceUrl)} is not allowed` };
    return this.connector.send(serviceUrl, conversationId, activity, credentials);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(not a URL)';
  }
}
