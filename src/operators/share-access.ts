// What the holder of a shared conversation URL (api.md section 9) may do: watch the one
// conversation live, and — with a `takeover` or `auto` link — take it over (operator `*`) and write
// to the user as an operator. Every call re-opens the link, so a link that expired (410), was
// dropped (404) or turned view-only by a handover stops working at once.
import { STATE_BANNED, STATE_TAKEN_OVER } from '../conversations/control.js';
import type { ControlService } from '../conversations/control-service.js';
import type { ConversationEvent, EventBus } from '../conversations/events.js';
import type { ConversationService } from '../conversations/service.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ShareAccessStorage } from './port.js';
import { TRANSCRIPT_LIMIT } from './console-service.js';
import type { OpenShare, ShareService } from './share-service.js';
import { botSummary, previewOf, readableName, transcriptOf, type ConversationSummary, type TranscriptLine } from './views.js';
import type { ShareMode } from '../conversations/model.js';

export interface SharedConversation {
  Mode: ShareMode;
  ExpiresAt: string;
  /** true when this link may write to the user now */
  CanSend: boolean;
  Conversation: ConversationSummary;
  Transcript: TranscriptLine[];
}

export class ShareAccess {
  constructor(private readonly deps: { store: ShareAccessStorage; shares: ShareService; control: ControlService; conversations: ConversationService; events: EventBus; clock: Clock }) {}

  /** Opening a `takeover` or `auto` link takes the conversation over for "any operator" (`*`). */
  async open(code: string): Promise<OpenShare> {
    const opened = await this.deps.shares.open(code);
    if (opened.share.mode === 'view') return opened;
    const state = this.deps.control.view(opened.conversation).State;
    if (state === STATE_TAKEN_OVER || state === STATE_BANNED) return opened;
    const account = await this.deps.store.accounts.byId(opened.bot.accountId);
    if (!account) throw new AppError('SHARE_NOT_FOUND');
    await this.deps.control.change(opened.bot, opened.conversation.userId, { state: 'takeover', operator: '*' });
    return this.deps.shares.open(code);
  }

  async conversation(code: string): Promise<SharedConversation> {
    const { share, conversation, bot } = await this.open(code);
    const messages = await this.deps.store.conversations.storedMessages(conversation.id, TRANSCRIPT_LIMIT);
    const view = this.deps.control.view(conversation);
    const last = messages.at(-1);
    return {
      Mode: share.mode,
      ExpiresAt: this.deps.clock.iso(share.expiresAt),
      CanSend: share.mode !== 'view' && view.State === STATE_TAKEN_OVER,
      Conversation: {
        ...botSummary(bot),
        ...view,
        Name: readableName(conversation.state.variables),
        Channel: conversation.channel,
        Creation: this.deps.clock.iso(conversation.createdAt),
        LastActivity: this.deps.clock.iso(last?.createdAt ?? conversation.createdAt),
        Preview: previewOf(last?.parts ?? []),
      },
      Transcript: transcriptOf(messages, this.deps.clock),
    };
  }

  /** 403 SHARE_READ_ONLY for `view` links; otherwise an operator line, delivered as the console's are. */
  async send(code: string, text: string) {
    const { share } = await this.deps.shares.open(code);
    if (share.mode === 'view') throw new AppError('SHARE_READ_ONLY');
    const { conversation, bot } = await this.open(code);
    const account = await this.deps.store.accounts.byId(bot.accountId);
    if (!account) throw new AppError('SHARE_NOT_FOUND');
    const reply = await this.deps.conversations.inject(bot, conversation, { direction: 'OPERATOR', text });
    return { Parts: reply.Parts };
  }

  /**
   * Events of the link's conversation. `stillValid` lets the stream re-check the link (on state
   * changes and heartbeats) and end when it stopped working.
   */
  async subscribe(code: string, deliver: (event: ConversationEvent) => void): Promise<{ unsubscribe: () => void; stillValid: () => Promise<boolean> }> {
    const { conversation } = await this.deps.shares.open(code);
    const unsubscribe = this.deps.events.subscribe((event) => {
      if (event.botId === conversation.botId && event.userId === conversation.userId) deliver(event);
    });
    const stillValid = () =>
      this.deps.shares.open(code).then(
        (again) => again.conversation.id === conversation.id,
        () => false,
      );
    return { unsubscribe, stillValid };
  }
}
