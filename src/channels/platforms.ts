// The messaging platforms this server speaks, with the API roots whoever runs it configured.
import type { Config } from '../config.js';
import type { MessagingChannel } from './messaging/model.js';
import type { MessagingPlatform } from './messaging/platform.js';
import { ChatwootPlatform } from './chatwoot/index.js';
import { InstagramPlatform } from './instagram/index.js';
import { MessengerPlatform } from './messenger/index.js';
import { SlackPlatform } from './slack/index.js';
import { SmsPlatform } from './sms/index.js';
import { TeamsPlatform } from './teams/index.js';
import { TelegramPlatform } from './telegram/index.js';
import { WhatsAppPlatform } from './whatsapp/index.js';

export function messagingPlatforms(
  config: Pick<Config, 'telegramApiUrl' | 'metaGraphUrl' | 'slackApiUrl' | 'twilioApiUrl' | 'botFramework' | 'allowPrivateNetwork'>,
): Map<MessagingChannel, MessagingPlatform> {
  const platforms: MessagingPlatform[] = [
    new TelegramPlatform(config.telegramApiUrl),
    new WhatsAppPlatform(config.metaGraphUrl),
    new MessengerPlatform(config.metaGraphUrl),
    new SlackPlatform(config.slackApiUrl),
    new SmsPlatform(config.twilioApiUrl),
    new ChatwootPlatform(config.allowPrivateNetwork),
    new InstagramPlatform(config.metaGraphUrl),
    new TeamsPlatform(config.botFramework),
  ];
  return new Map(platforms.map((p) => [p.channel, p]));
}
