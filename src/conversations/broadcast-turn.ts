// A broadcast reaching one conversation (broadcasts.md): a turn of that conversation through the
// same pipeline as every other (turns.ts), in which the engine runs the broadcast's behaviour as
// if the bot had started the turn. What it says is pushed to the conversation's channel; the
// conversation then stands where it stood unless the behaviour moved it on purpose (a goTo to
// another behaviour). The recipient is marked sent in the very transaction that commits the turn,
// under the recipient's claim: a turn whose claim was lost commits nothing.
import type { BotRecord } from '../bots/model.js';
import type { CompiledBot } from '../engine/compile.js';
import type { ConversationState, TurnOutcome } from '../engine/types.js';
import { copyState } from '../engine/state.js';
import { renderTemplate } from '../shared/template.js';
import type { Clock } from '../shared/clock.js';
import type { TurnMessage } from './webhook-plan.js';
import { broadcastMessageParts } from './broadcast-message.js';
import { excludedBecause, LAST_BROADCAST_VARIABLE, WINDOW_MS } from './broadcast-rules.js';
import { driveTurn, type AnswerMemo } from './drive-turn.js';
import { applyRequestValues, clampFlowState } from './limits.js';
import type { BroadcastMessage, ConversationRecord } from './model.js';
import type { ConversationStorage, TurnWrites } from './port.js';
import type { ConversationTurns } from './turns.js';
import type { UserTurn } from './user-turn.js';

export interface BroadcastRecipientTurn {
  broadcastId: string;
  run: number;
  conversationId: number;
  userId: string;
  claimedUntil: number;
  /** the behaviour it runs, or null with `message`: the broadcast's own text and buttons */
  behaviour: string | null;
  message: BroadcastMessage | null;
  variables: Record<string, string>;
  template: { Name: string; Language: string; Parameters?: string[] } | null;
  messengerTag: string | null;
}

export type BroadcastTurnOutcome = { kind: 'sent'; apiCalls: number; aiTokens: number } | { kind: 'skipped' | 'failed'; reason: string } | { kind: 'lost' };

class LostClaim extends Error {}

export class BroadcastTurn {
  constructor(
    private readonly deps: { clock: Clock; turns: ConversationTurns; store: ConversationStorage },
    private readonly userTurn: UserTurn,
  ) {}

  async run(bot: BotRecord, compiled: CompiledBot, r: BroadcastRecipientTurn): Promise<BroadcastTurnOutcome> {
    const memo: AnswerMemo = new Map();
    try {
      return await this.deps.turns.run(bot, r.userId, async (current) => {
        if (!current || current.id !== r.conversationId) return { reply: { kind: 'skipped', reason: 'forgotten' } as BroadcastTurnOutcome };
        const excluded = excludedBecause(current, this.deps.clock);
        if (excluded) return { reply: { kind: 'skipped', reason: excluded } as BroadcastTurnOutcome };
        const window = await this.window(current, r);
        if (typeof window === 'string') return { reply: { kind: 'skipped', reason: window } as BroadcastTurnOutcome };
        const state = copyState(current.state);
        applyRequestValues(
          state,
          Object.entries(r.variables).map(([Name, Value]) => ({ Name, Value })),
        );
        state.variables[LAST_BROADCAST_VARIABLE] = r.broadcastId;
        const outcome =
          r.behaviour !== null
            ? await driveTurn(compiled, state, { kind: 'goto', behaviour: r.behaviour }, this.userTurn.engineContext(), this.userTurn.handlers(bot, compiled, current.id, new Map()), memo)
            : said(r, state);
        const next: ConversationRecord = { ...current, state: outcome.state };
        clampFlowState(next.state);
        // Back where it stood, unless the behaviour sent the conversation elsewhere on purpose.
        if (r.behaviour !== null && outcome.state.position?.behaviour.toLowerCase() === r.behaviour.toLowerCase()) {
          Object.assign(next.state, { position: current.state.position, previous: current.state.previous, waiting: current.state.waiting, bookmark: current.state.bookmark });
        }
        Object.assign(next, this.userTurn.applyControl(next, outcome.effects));
        if (outcome.parts.length === 0) return { reply: { kind: 'skipped', reason: 'said_nothing' } as BroadcastTurnOutcome };
        const template = window.outside && r.template ? this.filled(r.template, next) : null;
        const message: TurnMessage = {
          direction: 'BOT',
          parts: outcome.parts,
          pushed: true,
          enableUserChat: outcome.enableUserChat,
          creation: this.deps.clock.iso(),
          broadcast: { outsideWindow: window.outside, template, messengerTag: window.outside ? r.messengerTag : null },
        };
        return {
          save: next,
          messages: [message],
          // no usage here: the scheduler counts a batch's notifications at once (every turn of an
          // account updating its one usage row would queue the turns one behind the other)
          broadcastTag: `${r.broadcastId}:${r.run}`,
          alsoWrite: async (tx: TurnWrites) => {
            // a web message is delivered once stored: the widget shows it from the history (docs/decisions.md)
            if (!(await tx.broadcasts.markSent(r, this.deps.clock.now(), current.channel === 'web'))) throw new LostClaim();
          },
          afterCommit: (saved: ConversationRecord) => this.userTurn.afterCommit(saved, outcome.effects),
          reply: { kind: 'sent', apiCalls: outcome.apiCalls, aiTokens: outcome.aiTokens } as BroadcastTurnOutcome,
        };
      });
    } catch (error) {
      if (error instanceof LostClaim) return { kind: 'lost' };
      return { kind: 'failed', reason: 'error' };
    }
  }

  /** Whether the platform's 24-hour window is open, or why the recipient is skipped. */
  private async window(c: ConversationRecord, r: BroadcastRecipientTurn): Promise<{ outside: boolean } | string> {
    if (c.channel !== 'whatsapp' && c.channel !== 'messenger' && c.channel !== 'instagram') return { outside: false };
    const last = (await this.deps.store.broadcasts.lastUserAt(c.id)) ?? c.createdAt;
    const outside = this.deps.clock.now() - last > WINDOW_MS;
    if (!outside) return { outside };
    if (c.channel === 'whatsapp' && !r.template) return 'outside_window_no_template';
    if (c.channel === 'messenger' && !r.messengerTag) return 'outside_window_no_tag';
    // Instagram has no message tag for promotions (channels-more.md): outside the window, skipped.
    if (c.channel === 'instagram') return 'outside_window_no_tag';
    return { outside };
  }

  private filled(t: NonNullable<BroadcastRecipientTurn['template']>, c: ConversationRecord) {
    return { name: t.Name, language: t.Language, parameters: (t.Parameters ?? []).map((p) => renderTemplate(p, c.state.variables)) };
  }
}

/** A broadcast's own message as a turn's outcome: its parts, the state only as the request values left it. */
function said(r: BroadcastRecipientTurn, state: ConversationState): Pick<TurnOutcome, 'state' | 'parts' | 'effects' | 'enableUserChat' | 'apiCalls' | 'aiTokens'> {
  return { state, parts: broadcastMessageParts(r.broadcastId, r.message!, state), effects: [], enableUserChat: true, apiCalls: 0, aiTokens: 0 };
}
