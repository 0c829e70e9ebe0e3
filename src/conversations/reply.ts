// What a conversation answers, whatever the channel: the reply of api.md section 3. The custom
// channel sends it as is, the widget reads the same shape, and webhooks carry it as `Reply`.
// Built in one place (`replyOf`). A reply whose parts are already JSON text (READY on a long
// history: joining stored JSON is ten times cheaper than parsing 10,000 messages only to
// serialize them again) still reads like any other: `Parts` parses on first use.
import type { ReplyPart, TurnMatch } from '../engine/types.js';
import type { Clock } from '../shared/clock.js';
import type { ConversationRecord } from './model.js';

export interface ChatReply {
  Parts: ReplyPart[];
  UserId: string;
  Creation: string;
  EnableUserChat: boolean;
  ControlType: number;
}

/** The reply made now (`Creation` is the time a reply is made, api.md Conventions). */
export function replyOf(conversation: Pick<ConversationRecord, 'userId' | 'controlState'>, parts: ReplyPart[], enableUserChat: boolean, clock: Pick<Clock, 'iso'>): ChatReply {
  return { Parts: parts, UserId: conversation.userId, Creation: clock.iso(), EnableUserChat: enableUserChat, ControlType: conversation.controlState };
}

/**
 * What took the user text of the turn a reply answers (engine TurnMatch), kept under a symbol: no
 * channel's JSON carries it (JSON.stringify skips symbol keys); only the designer's preview reads it.
 */
export const TURN_MATCH = Symbol('turnMatch');

export const matchOf = (reply: ChatReply): TurnMatch | null => (reply as ChatReply & { [TURN_MATCH]?: TurnMatch })[TURN_MATCH] ?? null;

export const PARTS_JSON = Symbol('partsJson');

type WithJson = ChatReply & { [PARTS_JSON]?: string };

/** `partsJson` must be the JSON text of an array of reply parts. */
export function replyWithPartsJson(reply: Omit<ChatReply, 'Parts'>, partsJson: string): ChatReply {
  let parsed: ReplyPart[] | null = null;
  const result = { [PARTS_JSON]: partsJson } as WithJson;
  Object.defineProperty(result, 'Parts', {
    enumerable: true,
    get: () => (parsed ??= JSON.parse(partsJson) as ReplyPart[]),
  });
  return Object.assign(result, reply);
}

/** The parts as JSON text: the stored text when the reply was made from it. */
export const partsJsonOf = (reply: ChatReply): string => (reply as WithJson)[PARTS_JSON] ?? JSON.stringify(reply.Parts);
