// Conversation control (api.md sections 7 and 8): ban, unban, forget, takeover, handover, and the
// changes time makes (ended bans, expired `auto` links) — each one atomic turn on the conversation,
// serialized with chat turns, through the one state machine (control-machine.ts).
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ConversationStorage } from './port.js';
import { banIsActive, STATE_BANNED, STATE_BOT, STATE_TAKEN_OVER } from './control.js';
import { liftEndedBan, transition, type ControlChange } from './control-machine.js';
import type { ConversationTurns } from './turns.js';
import type { ConversationRecord } from './model.js';
import type { BotRecord } from '../bots/model.js';

export const STATE_COMMANDS = ['ban', 'unban', 'forget', 'takeover', 'handover'] as const;
export type StateCommand = (typeof STATE_COMMANDS)[number];
export const HANDOVER_MODES = ['viewshares', 'dropshares', '*'] as const;
/** The longest ban, in days (a hundred years): its end must still be a date. */
export const MAX_BAN_DAYS = 36_500;
export type HandoverMode = (typeof HANDOVER_MODES)[number];

export interface StateChange {
  state: StateCommand;
  mode?: HandoverMode;
  /** an e-mail or `*` */
  operator?: string;
  days?: number;
  message?: string;
}

/** What a `forget` answers: deletion has started (api.md section 8). */
export interface BeingForgotten {
  UserId: string;
  State: 'forgetting';
}

export const isBeingForgotten = (result: StateView | BeingForgotten): result is BeingForgotten => result.State === 'forgetting';

export interface StateView {
  UserId: string;
  State: number;
  Operator: string | null;
  BanExpiration: string | null;
  BanMessage: string | null;
}

export class ControlService {
  constructor(
    private readonly store: ConversationStorage,
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

  /** The new state, or that the user is being forgotten (the HTTP layer answers 202 for it). */
  async change(bot: BotRecord, userId: string, change: StateChange): Promise<StateView | BeingForgotten> {
    return this.turns.run<StateView | BeingForgotten>(bot, userId, async (current) => {
      if (!current) throw new AppError('CONVERSATION_NOT_FOUND');
      const forgetting: BeingForgotten = { UserId: userId, State: 'forgetting' };
      if (current.forgetting) {
        if (change.state === 'forget') return { reply: forgetting };
        throw new AppError('CONVERSATION_FORGETTING');
      }
      const next = transition(current, machineChange(change), this.clock);
      if (change.state === 'forget') return { save: next, afterCommit: (saved) => this.forget(saved), reply: forgetting };
      const mode = change.state === 'handover' ? (change.mode ?? '*') : '*';
      return {
        save: next,
        alsoWrite: async (tx, conversationId) => {
          if (mode === 'viewshares') await tx.shares.makeViewOnly(conversationId);
          if (mode === 'dropshares') await tx.shares.dropAll(conversationId);
        },
        reply: this.view(next),
      };
    });
  }

  /**
   * Bans whose last day ended are lifted in the stored row too (readers already see state 0), each
   * in a turn of its conversation, so the change has its `state` webhook and live event.
   */
  async liftEndedBans(): Promise<number> {
    let lifted = 0;
    for (const ended of await this.store.conversations.endedBans(this.clock.date())) {
      const bot = await this.store.bots.byId(ended.botId);
      if (!bot) continue;
      await this.turns.run(bot, ended.userId, async (current) => {
        const next = current && !current.forgetting ? liftEndedBan(current, this.clock) : current;
        if (!next || next === current) return { reply: undefined };
        lifted++;
        return { save: next, reply: undefined };
      });
    }
    return lifted;
  }

  /**
   * `auto` share links hand their conversation back to the bot when they expire (api.md section
   * 9). Each expired link is claimed once, in the same transaction as the hand-back, so any number
   * of nodes may run this.
   */
  async handBackExpiredLinks(): Promise<number> {
    let handed = 0;
    for (const link of await this.store.shares.expiredAuto(this.clock.now())) {
      const target = await this.store.conversations.byId(link.conversationId);
      const bot = target && (await this.store.bots.byId(target.botId));
      if (!target || !bot) {
        await this.store.shares.markHandedBack(link.codeHash);
        continue;
      }
      const claimed = await this.turns
        .run(bot, target.userId, async (current) => {
          const next = current && !current.forgetting ? transition(current, { kind: 'linkExpired' }, this.clock) : null;
          // Nothing to hand back (handed back already, or another link's): the claim alone.
          if (!next || next === current) return { reply: await this.store.shares.markHandedBack(link.codeHash) };
          return {
            save: next,
            alsoWrite: async (tx) => {
              if (!(await tx.shares.markHandedBack(link.codeHash))) throw new ClaimedElsewhere();
            },
            reply: true,
          };
        })
        .catch((error: unknown) => {
          if (error instanceof ClaimedElsewhere) return false;
          throw error;
        });
      if (claimed) handed++;
    }
    return handed;
  }
}

/** Another node handed this link back first; the transaction that found it out is rolled back. */
class ClaimedElsewhere extends Error {}

function machineChange(change: StateChange): ControlChange {
  switch (change.state) {
    case 'ban':
      return { kind: 'ban', days: change.days, message: change.message };
    case 'takeover':
      return { kind: 'takeover', operator: change.operator ?? '*' };
    default:
      return { kind: change.state };
  }
}
