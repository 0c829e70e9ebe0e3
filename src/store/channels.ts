// Messaging channel connections (credentials sealed with the server key), the updates already
// run, and per-contact facts the platforms need (spec channels.md).
import type { SecretBox } from '../auth/secret-box.js';
import type { ChannelConnection, Credentials, MessagingChannel } from '../channels/messaging/model.js';
import type { Queryable } from './driver.js';

interface Row {
  bot_id: string;
  channel: string;
  channel_id: string;
  enabled: number;
  account: string | null;
  credentials: string | null;
  last_inbound_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** Sealed credentials are bound to their bot and channel: a row's ciphertext cannot be moved to another. */
const contextOf = (botId: string, channel: string) => `channel:${botId}:${channel}`;

export function channelRepository(db: Queryable, secrets: SecretBox) {
  const toConnection = (r: Row): ChannelConnection => ({
    botId: r.bot_id,
    channel: r.channel as MessagingChannel,
    channelId: r.channel_id,
    enabled: Number(r.enabled) === 1,
    account: r.account,
    credentials: r.credentials === null ? null : (JSON.parse(secrets.decrypt(r.credentials, contextOf(r.bot_id, r.channel))) as Credentials),
    lastInboundAt: r.last_inbound_at === null ? null : Number(r.last_inbound_at),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  });
  return {
    async byBot(botId: string): Promise<ChannelConnection[]> {
      const rows = await db.all<Row>('SELECT * FROM channel_connections WHERE bot_id = $1 ORDER BY channel', [botId]);
      return rows.map(toConnection);
    },
    async get(botId: string, channel: MessagingChannel): Promise<ChannelConnection | null> {
      const row = await db.get<Row>('SELECT * FROM channel_connections WHERE bot_id = $1 AND channel = $2', [botId, channel]);
      return row ? toConnection(row) : null;
    },
    async byChannelId(channel: MessagingChannel, channelId: string): Promise<ChannelConnection | null> {
      const row = await db.get<Row>('SELECT * FROM channel_connections WHERE channel_id = $1 AND channel = $2 AND enabled = 1', [channelId, channel]);
      return row ? toConnection(row) : null;
    },
    /** Connects (or reconnects, replacing the credentials) a bot to a platform. */
    async connect(c: Pick<ChannelConnection, 'botId' | 'channel' | 'channelId' | 'account'> & { credentials: Credentials }, now: number): Promise<void> {
      const sealed = secrets.encrypt(JSON.stringify(c.credentials), contextOf(c.botId, c.channel));
      await db.run(
        `INSERT INTO channel_connections (bot_id, channel, channel_id, enabled, account, credentials, last_inbound_at, last_error, created_at, updated_at)
         VALUES ($1, $2, $3, 1, $4, $5, NULL, NULL, $6, $6)
         ON CONFLICT (bot_id, channel) DO UPDATE SET channel_id = $3, enabled = 1, account = $4, credentials = $5, last_error = NULL, updated_at = $6`,
        [c.botId, c.channel, c.channelId, c.account, sealed, now],
      );
    },
    /** Erases the credentials; the row stays (listed as disabled) and its webhook path stops answering. */
    async disconnect(botId: string, channel: MessagingChannel, now: number): Promise<boolean> {
      const changed = await db.run('UPDATE channel_connections SET enabled = 0, credentials = NULL, updated_at = $3 WHERE bot_id = $1 AND channel = $2 AND enabled = 1', [botId, channel, now]);
      return changed > 0;
    },
    async noteInbound(channelId: string, at: number): Promise<void> {
      await db.run('UPDATE channel_connections SET last_inbound_at = $2 WHERE channel_id = $1', [channelId, at]);
    },
    async noteError(botId: string, channel: string, error: string | null): Promise<void> {
      await db.run('UPDATE channel_connections SET last_error = $3 WHERE bot_id = $1 AND channel = $2', [botId, channel, error]);
    },
    /** Whether this update ran already. */
    async seen(channelId: string, key: string): Promise<boolean> {
      return (await db.get('SELECT 1 AS one FROM channel_updates WHERE channel_id = $1 AND update_key = $2', [channelId, key])) !== undefined;
    },
    /** Records an update as run (with the turn it caused); false when it was recorded already. */
    async markSeen(channelId: string, key: string, conversationId: number | null, at: number): Promise<boolean> {
      const added = await db.run('INSERT INTO channel_updates (channel_id, update_key, conversation_id, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
        channelId,
        key,
        conversationId,
        at,
      ]);
      return added > 0;
    },
    /** Updates are redelivered for a day at most; older records only take room. */
    async pruneSeen(before: number): Promise<number> {
      return db.run('DELETE FROM channel_updates WHERE received_at < $1', [before]);
    },
    async contact(conversationId: number): Promise<{ lastInboundId: string | null; replyAddress: string | null; banNoticeAt: number | null }> {
      const row = await db.get<{ last_inbound_id: string | null; reply_address: string | null; ban_notice_at: number | null }>(
        'SELECT last_inbound_id, reply_address, ban_notice_at FROM channel_contacts WHERE conversation_id = $1',
        [conversationId],
      );
      return { lastInboundId: row?.last_inbound_id ?? null, replyAddress: row?.reply_address ?? null, banNoticeAt: row?.ban_notice_at == null ? null : Number(row.ban_notice_at) };
    },
    /** Teams: the serviceUrl of the conversation's latest verified activity, where its replies go. */
    async noteReplyAddress(conversationId: number, address: string): Promise<void> {
      await db.run(
        `INSERT INTO channel_contacts (conversation_id, reply_address) VALUES ($1, $2)
         ON CONFLICT (conversation_id) DO UPDATE SET reply_address = $2`,
        [conversationId, address],
      );
    },
    async noteLastInbound(conversationId: number, messageId: string): Promise<void> {
      await db.run(
        `INSERT INTO channel_contacts (conversation_id, last_inbound_id, ban_notice_at) VALUES ($1, $2, NULL)
         ON CONFLICT (conversation_id) DO UPDATE SET last_inbound_id = $2`,
        [conversationId, messageId],
      );
    },
    /** Claims the right to send the ban message now: false when one went out less than `everyMs` ago. */
    async claimBanNotice(conversationId: number, now: number, everyMs: number): Promise<boolean> {
      await db.run('INSERT INTO channel_contacts (conversation_id, last_inbound_id, ban_notice_at) VALUES ($1, NULL, NULL) ON CONFLICT (conversation_id) DO NOTHING', [conversationId]);
      const changed = await db.run('UPDATE channel_contacts SET ban_notice_at = $2 WHERE conversation_id = $1 AND (ban_notice_at IS NULL OR ban_notice_at <= $3)', [
        conversationId,
        now,
        now - everyMs,
      ]);
      return changed > 0;
    },
  };
}
