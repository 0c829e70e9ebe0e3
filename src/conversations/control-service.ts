// Conversation control (api.md sections 7 and 8): ban, unban, forget, takeover, handover — each
// one atomic turn on the conversation, serialized with chat turns.
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ConversationRecord } from '../store/conversations.js';
import type { Store } from '../store/index.js';
import type { BotRecord } from '../store/records.js';
import { banIsActive, STATE_BANNED, STATE_BOT, STATE_TAKEN_OVER } from './control.js';
import type { ConversationTurns } from './turns.js';

export const STATE_COMMANDS = ['ban', 'unban', 'forget', 'takeover', 'handover'] as const;
export type StateCommand = (typeof STATE_COMMANDS)[number];
export const HANDOVER_MODES = ['viewshares', 'dropshares', '*'] as const;
export type HandoverMode = (typeof HANDOVER_MODES)[number];

export interface StateChange {
  state: StateCommand;
  mode?: HandoverMode;
  /** an e-mail or `*` */
  operator?: string;
  days?: number;
  message?: string;
}

export interface StateView {
  UserId: string;
  State: number;
  Operator: string | null;
  BanExpiration: string | null;
  BanMessage: string | null;
}

const DAY_MS = 86_400_000;

export class ControlService {
  constructor(
    private readonly store: Store,
    private readonly turns: ConversationTurns,
    private readonly clock: Clock,
    /** deletes a conversation marked as forgetting, right after the change committed */
    private readonly forget: (conversation: ConversationRecord) => void,
  ) {}

  /** The state as a client sees it now: an expired ban already reads as state 0. */
  view(c: ConversationRecord): StateView {
    const banned = banIsActive(c, this.clock);
    const state = c.controlState === STATE_BANNED && !banned ? STATE_BOT : c.controlState;
    return {
      UserId: c.userId,
      State: state,
      Operator: state === STATE_TAKEN_OVER ? c.operator : null,
      BanExpiration: banned ? c.banExpiration : null,
      BanMessage: banned ? c.banMessage : null,
    };
  }

  async state(bot: BotRecord, userId: string): Promise<StateView> {
    const c = await this.store.conversations.byUser(bot.id, userId);
    if (!c) throw new AppError('CONVERSATION_NOT_FOUND');
    if (c.forgetting) throw new AppError('CONVERSATION_FORGETTING');
    return this.view(c);
  }

  /** Returns the HTTP status (200, or 202 for forget) and the body. */
  async change(bot: BotRecord, userId: string, change: StateChange): Promise<{ status: number; body: unknown }> {
    return this.turns.run<{ status: number; body: unknown }>(bot, userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      if (current.forgetting) {
        if (change.state === 'forget') return { reply: { status: 202, body: { UserId: userId, State: 'forgetting' } } };
        throw new AppError('CONVERSATION_FORGETTING');
      }
      const banned = banIsActive(current, this.clock);
      const next: ConversationRecord = { ...current };
      if (current.controlState === STATE_BANNED && !banned) Object.assign(next, { controlState: STATE_BOT, banExpiration: null, banMessage: null });
      switch (change.state) {
        case 'forget':
          next.forgetting = true;
          return { save: next, afterCommit: (saved) => this.forget(saved), reply: { status: 202, body: { UserId: userId, State: 'forgetting' } } };
        case 'ban':
          Object.assign(next, {
            controlState: STATE_BANNED,
            operator: null,
            banExpiration: change.days === undefined ? null : this.clock.date(this.clock.now() + change.days * DAY_MS),
            banMessage: change.message ?? null,
          });
          break;
        case 'unban':
          if (!banned) throw new AppError('STATE_CONFLICT', 'Only a banned conversation can be unbanned.', { State: this.view(current).State });
          Object.assign(next, { controlState: STATE_BOT, banExpiration: null, banMessage: null });
          break;
        case 'takeover':
          if (banned) throw new AppError('STATE_CONFLICT', 'A banned conversation cannot be taken over; unban it first.', { State: STATE_BANNED });
          Object.assign(next, { controlState: STATE_TAKEN_OVER, operator: change.operator ?? '*' });
          break;
        case 'handover':
          if (banned) throw new AppError('STATE_CONFLICT', 'A banned conversation cannot be handed over; unban it first.', { State: STATE_BANNED });
          Object.assign(next, { controlState: STATE_BOT, operator: null });
          break;
      }
      const mode = change.state === 'handover' ? (change.mode ?? '*') : '*';
      return {
        save: next,
        alsoWrite: async (tx, conversationId) => {
          if (mode === 'viewshares') await tx.shares.makeViewOnly(conversationId);
          if (mode === 'dropshares') await tx.shares.dropAll(conversationId);
        },
        reply: { status: 200, body: this.view(next) },
      };
    });
  }
}
