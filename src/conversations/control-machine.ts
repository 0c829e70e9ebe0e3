// The one state machine of a conversation's control state (api.md sections 7 and 8). Every change
// goes through `transition`, applied inside a conversation turn (turns.ts), whoever causes it:
// the integrator (POST /custom/state), an operator (console, share links), the flow (`operator`
// and `forget` actions) or time (a ban whose last day ended, an `auto` share link that expired).
// So every change takes the conversation's lock, commits with the turn, and leaves a `state`
// webhook and live event.
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { assertCanChat, banIsActive, STATE_BANNED, STATE_BOT, STATE_REQUESTED, STATE_TAKEN_OVER } from './control.js';
import type { ConversationRecord } from './model.js';
import { DAY_MS } from '../shared/durations.js';

export type ControlChange =
  | { kind: 'ban'; days?: number; message?: string }
  | { kind: 'unban' }
  /** an operator (an e-mail, or `*` for any) takes the conversation */
  | { kind: 'takeover'; operator: string }
  /** back to the bot (console, API, the flow's `operator` action with mode `bot`) */
  | { kind: 'handover' }
  /** the flow asks for a person (`operator` action, mode `request`) */
  | { kind: 'request' }
  | { kind: 'forget' }
  /** an `auto` share link expired: a conversation it took over goes back to the bot */
  | { kind: 'linkExpired' };

/**
 * The conversation after `change`, or STATE_CONFLICT. A ban whose last day ended is lifted first,
 * whatever the change: a lifted ban is state 0 to every reader already (see `liftEndedBan`).
 */
export function transition(current: ConversationRecord, change: ControlChange, clock: Clock): ConversationRecord {
  const c = liftEndedBan(current, clock);
  const banned = c.controlState === STATE_BANNED;
  switch (change.kind) {
    case 'forget':
      return { ...c, forgetting: true };
    case 'ban':
      return {
        ...c,
        controlState: STATE_BANNED,
        operator: null,
        banExpiration: change.days === undefined ? null : clock.date(clock.now() + change.days * DAY_MS),
        banMessage: change.message ?? null,
      };
    case 'unban':
      if (!banned) throw new AppError('STATE_CONFLICT', 'Only a banned conversation can be unbanned.', { State: c.controlState });
      return toBot(c);
    case 'takeover':
      if (banned) throw new AppError('STATE_CONFLICT', 'A banned conversation cannot be taken over; unban it first.', { State: STATE_BANNED });
      return { ...c, controlState: STATE_TAKEN_OVER, operator: change.operator, state: withoutAgent(c.state) };
    case 'handover':
      if (banned) throw new AppError('STATE_CONFLICT', 'A banned conversation cannot be handed over; unban it first.', { State: STATE_BANNED });
      return toBot(c);
    case 'request':
      return banned ? c : { ...c, controlState: STATE_REQUESTED, operator: null };
    case 'linkExpired':
      return c.controlState === STATE_TAKEN_OVER ? toBot(c) : c;
  }
}

/**
 * The conversation as a message may reach it: 423 while it is being forgotten, 403 while banned;
 * a ban whose last day ended is lifted.
 */
export function chattable(c: ConversationRecord, clock: Clock): ConversationRecord {
  assertCanChat(c, clock);
  return liftEndedBan(c, clock);
}

/** The conversation with a ban whose last day ended (UTC) lifted; unchanged otherwise. */
export function liftEndedBan(c: ConversationRecord, clock: Clock): ConversationRecord {
  return c.controlState === STATE_BANNED && !banIsActive(c, clock) ? toBot(c) : c;
}

/** agents.md: an operator's takeover ends an agent's hold on the conversation (an input keeps waiting). */
const withoutAgent = (state: ConversationRecord['state']): ConversationRecord['state'] => (state.waiting?.agent === true ? { ...state, waiting: null } : state);

const toBot = (c: ConversationRecord): ConversationRecord => ({ ...c, controlState: STATE_BOT, operator: null, banExpiration: null, banMessage: null });
