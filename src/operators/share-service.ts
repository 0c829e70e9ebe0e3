// Shared conversation URLs (api.md section 9): created by the API or the `shareUrl` action,
// opened by anyone holding the link, for as long as the link lives.
import crypto from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ShareStorage } from './port.js';
import type { ConversationRecord } from '../conversations/model.js';
import type { BotRecord } from '../bots/model.js';
import type { ShareMode, ShareRecord, StoredShare } from '../conversations/model.js';

export const SHARE_MODES: ShareMode[] = ['view', 'takeover', 'auto'];
const HOUR_MS = 3_600_000;

export interface OpenShare {
  share: StoredShare;
  conversation: ConversationRecord;
  bot: BotRecord;
}

export class ShareService {
  constructor(
    private readonly store: ShareStorage,
    private readonly clock: Clock,
    private readonly config: { publicUrl: string },
  ) {}

  url(code: string): string {
    return `${this.config.publicUrl}/share/${code}`;
  }

  /** A share row for a conversation (written by the caller, e.g. inside a chat turn's transaction). */
  newShare(conversationId: number, mode: ShareMode, hours: number): ShareRecord {
    const now = this.clock.now();
    return {
      code: crypto.randomBytes(18).toString('base64url'),
      conversationId,
      mode,
      expiresAt: now + Math.round(hours * HOUR_MS),
      handedBack: false,
      createdAt: now,
    };
  }

  async create(bot: BotRecord, userId: string, mode: ShareMode, hours: number): Promise<{ Url: string }> {
    const conversation = await this.store.conversations.byUser(bot.id, userId);
    if (!conversation || conversation.forgetting) throw new AppError('CONVERSATION_NOT_FOUND');
    const share = this.newShare(conversation.id, mode, hours);
    await this.store.shares.insert(share);
    return { Url: this.url(share.code) };
  }

  /** The link's conversation: 404 for unknown or dropped links, 410 once expired. */
  async open(code: string): Promise<OpenShare> {
    const share = /^[\w-]{1,64}$/.test(code) ? await this.store.shares.byCode(code) : null;
    if (!share) throw new AppError('SHARE_NOT_FOUND');
    if (share.expiresAt <= this.clock.now()) throw new AppError('SHARE_EXPIRED');
    const conversation = await this.store.conversations.byId(share.conversationId);
    if (!conversation || conversation.forgetting) throw new AppError('SHARE_NOT_FOUND');
    const bot = await this.store.bots.byId(conversation.botId);
    if (!bot) throw new AppError('SHARE_NOT_FOUND');
    return { share, conversation, bot };
  }
}
