// The channel settings' calls to the console API (routes/console-channels.ts): the bot's messaging
// channels with their declared connect forms, connect and disconnect. Kept apart from api.ts,
// which the designer's other panels share.
import { consoleApi } from '../shared/api-client';

export interface FormField {
  Name: string;
  Label: string;
  Help: string;
  Secret: boolean;
  Optional: boolean;
  Kind: 'text' | 'url' | 'numbers' | string;
  MaxLength: number;
}
export interface ChannelSetting {
  Channel: string;
  Title: string;
  Enabled: boolean;
  WebhookUrl: string | null;
  Account?: string | null;
  LastInboundAt: string | null;
  LastError: string | null;
  MoreUrls: { Label: string; Help: string; Url: string }[];
  Form: { Intro: string; Fields: FormField[] } | null;
}
export interface Connected {
  Channel: string;
  WebhookUrl: string;
  Account?: string | null;
  VerifyToken?: string;
  InteractivityUrl?: string;
}

const channelsPath = (botId: string, channel = '') => `/bots/${encodeURIComponent(botId)}/channels${channel ? `/${encodeURIComponent(channel)}` : ''}`;

export const channelSettings = async (botId: string): Promise<ChannelSetting[]> => (await consoleApi.call<{ Result: ChannelSetting[] }>('GET', channelsPath(botId))).Result;
export const connectChannel = (botId: string, channel: string, body: Record<string, unknown>) => consoleApi.call<Connected>('PUT', channelsPath(botId, channel), body);
export const disconnectChannel = async (botId: string, channel: string): Promise<void> => void (await consoleApi.call('DELETE', channelsPath(botId, channel)));
