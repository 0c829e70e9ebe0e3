// Connecting a bot to a messaging platform, listing its channels and disconnecting (channels.md
// "Connecting a bot"). Credentials go to the store sealed and never come back out of this file.
import crypto from 'node:crypto';
import type { BotRecord } from '../../bots/model.js';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import type { ConnectionStorage } from './port.js';
import { webhookUrlOf } from '../../webhooks/webhook-url.js';
import { isMessagingChannel, MESSAGING_CHANNELS, type ChannelConnection, type MessagingChannel } from './model.js';
import type { MessagingPlatform } from './platform.js';

export interface ChannelListing {
  Channel: string;
  Enabled: boolean;
  WebhookUrl: string | null;
  Account?: string;
  LastInboundAt: string | null;
  LastError: string | null;
}

export class ChannelConnections {
  constructor(
    private readonly deps: {
      store: ConnectionStorage;
      platforms: ReadonlyMap<MessagingChannel, MessagingPlatform>;
      clock: Clock;
      publicUrl: () => string;
    },
  ) {}

  /** The platform of a channel name in a path; 404 NOT_FOUND for any other name. */
  platform(name: string): MessagingPlatform {
    const channel = name.toLowerCase();
    const platform = isMessagingChannel(channel) ? this.deps.platforms.get(channel) : undefined;
    if (!platform) throw new AppError('NOT_FOUND', `There is no messaging channel named "${name}".`);
    return platform;
  }

  /** Every platform this server speaks, in the order the console shows them. */
  platforms(): MessagingPlatform[] {
    return [...this.deps.platforms.values()];
  }

  webhookUrl(channel: MessagingChannel, channelId: string): string {
    return `${this.deps.publicUrl()}/channels/${channel}/${channelId}`;
  }

  async connect(bot: BotRecord, channelName: string, body: Record<string, unknown>): Promise<{ Channel: string; Enabled: true; WebhookUrl: string; Account?: string | null; VerifyToken?: string }> {
    const platform = this.platform(channelName);
    const existing = await this.deps.store.channels.get(bot.id, platform.channel);
    // Reconnecting keeps the webhook URL already pasted into a platform's settings; after a
    // disconnect the old URL stays dead and a new one is made.
    const channelId = existing?.enabled ? existing.channelId : crypto.randomBytes(18).toString('base64url');
    const webhookUrl = this.webhookUrl(platform.channel, channelId);
    const connected = await platform.connect(body, webhookUrl);
    await this.deps.store.channels.connect({ botId: bot.id, channel: platform.channel, channelId, account: connected.account, credentials: connected.credentials }, this.deps.clock.now());
    return { Channel: platform.channel, Enabled: true as const, WebhookUrl: webhookUrl, ...connected.reply };
  }

  async disconnect(bot: BotRecord, channelName: string): Promise<void> {
    const platform = this.platform(channelName);
    const existing = await this.deps.store.channels.get(bot.id, platform.channel);
    if (!existing?.enabled || !existing.credentials) return;
    await this.deps.store.channels.disconnect(bot.id, platform.channel, this.deps.clock.now());
    await platform.disconnect(existing.credentials).catch(() => undefined);
  }

  /** Every channel of the bot, web and custom included, without a credential in sight. */
  async list(bot: BotRecord): Promise<ChannelListing[]> {
    const connections = new Map((await this.deps.store.channels.byBot(bot.id)).map((c) => [c.channel, c]));
    const web = bot.settings.channels?.web as { enabled?: boolean } | undefined;
    const listing: ChannelListing[] = [
      { Channel: 'custom', Enabled: true, WebhookUrl: webhookUrlOf(bot), LastInboundAt: null, LastError: null },
      { Channel: 'web', Enabled: web?.enabled === true, WebhookUrl: null, LastInboundAt: null, LastError: null },
    ];
    for (const channel of MESSAGING_CHANNELS) {
      const c = connections.get(channel);
      listing.push(c ? this.listed(c) : { Channel: channel, Enabled: false, WebhookUrl: null, LastInboundAt: null, LastError: null });
    }
    return listing;
  }

  private listed(c: ChannelConnection): ChannelListing {
    return {
      Channel: c.channel,
      Enabled: c.enabled,
      WebhookUrl: c.enabled ? this.webhookUrl(c.channel, c.channelId) : null,
      ...(c.account ? { Account: c.account } : {}),
      LastInboundAt: c.lastInboundAt === null ? null : new Date(c.lastInboundAt).toISOString(),
      LastError: c.lastError,
    };
  }
}
