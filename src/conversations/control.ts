// Control states of a conversation (api.md sections 7 and 8), and what a chat turn must respect:
// being forgotten (423), banned (403, bounced), and a ban that lifts when its day has ended.
// Changes of the state are transitions of control-machine.ts.
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ControlState, ConversationRecord } from './model.js';

export const STATE_BOT: ControlState = 0;
export const STATE_REQUESTED: ControlState = 1;
export const STATE_TAKEN_OVER: ControlState = 2;
export const STATE_BANNED: ControlState = 3;

/** A ban lasts through its expiration day (UTC); a ban without expiration lasts until unbanned. */
export function banIsActive(c: Pick<ConversationRecord, 'controlState' | 'banExpiration'>, clock: Clock): boolean {
  return c.controlState === STATE_BANNED && (c.banExpiration === null || clock.date() <= c.banExpiration);
}

/** Throws when the conversation may not take a message now (423 forgetting, 403 banned). */
export function assertCanChat(c: ConversationRecord, clock: Clock): void {
  if (c.forgetting) throw new AppError('CONVERSATION_FORGETTING');
  if (banIsActive(c, clock)) {
    throw new AppError('USER_BANNED', c.banMessage ?? undefined, { BanExpiration: c.banExpiration, BanMessage: c.banMessage });
  }
}
