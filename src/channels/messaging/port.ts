// What the messaging channels need from storage: a bot's connections to the platforms, the
// updates already seen, a contact's last inbound message and ban notice, and the outbox rows an
// update writes outside a turn. Declared here and implemented by store/channels.ts (credentials
// sealed there) and store/outbox.ts on SQLite and PostgreSQL. wiring/ hands each class its slice.
import type { BotRecord } from '../../bots/model.js';
import type { ReplyPart } from '../../engine/types.js';
import type { NewOutboxRow } from '../../webhooks/model.js';
import type { ChannelConnection, Credentials, MessagingChannel } from './model.js';

export interface ChannelRepository {
  byBot(botId: string): Promise<ChannelConnection[]>;
  get(botId: string, channel: MessagingChannel): Promise<ChannelConnection | null>;
  byChannelId(channel: MessagingChannel, channelId: string): Promise<ChannelConnection | null>;
  connect(c: Pick<ChannelConnection, 'botId' | 'channel' | 'channelId' | 'account'> & { credentials: Credentials }, now: number): Promise<void>;
  /** erases the credentials; false when the bot had no enabled connection to this platform */
  disconnect(botId: string, channel: MessagingChannel, now: number): Promise<boolean>;
  noteInbound(channelId: string, at: number): Promise<void>;
  noteError(botId: string, channel: string, error: string | null): Promise<void>;
  /** whether this update was recorded already */
  seen(channelId: string, key: string): Promise<boolean>;
  pruneSeen(before: number): Promise<number>;
  contact(conversationId: number): Promise<{ lastInboundId: string | null; replyAddress: string | null; banNoticeAt: number | null }>;
}

/** A bot's connections (connections.ts). */
export interface ConnectionStorage {
  channels: Pick<ChannelRepository, 'byBot' | 'get' | 'connect' | 'disconnect'>;
}

/** What an acknowledgement or a ban notice writes in one transaction (inbound.ts). */
export interface InboundWrites {
  channels: {
    /** false when the user heard the ban message less than `everyMs` ago */
    claimBanNotice(conversationId: number, now: number, everyMs: number): Promise<boolean>;
  };
  outbox: { insert(row: NewOutboxRow): Promise<void> };
}

/** A platform's webhook request (inbound.ts). */
export interface InboundStorage {
  channels: Pick<ChannelRepository, 'byChannelId' | 'noteInbound' | 'seen' | 'pruneSeen'>;
  bots: { byId(id: string): Promise<BotRecord | null> };
  /** an SMS conversation's last parts: the options a number or a text may name (sms/) */
  conversations: { historyParts(conversationId: number, limit?: number): Promise<ReplyPart[]> };
  transaction<T>(work: (tx: InboundWrites) => Promise<T>): Promise<T>;
}

/** An outbox row's call to its platform (outbound.ts). */
export interface OutboundStorage {
  channels: Pick<ChannelRepository, 'get' | 'contact' | 'noteError'>;
}
