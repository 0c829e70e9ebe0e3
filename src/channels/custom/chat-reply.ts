// A chat reply whose parts may already be JSON text. READY on a long history is the reason: the
// stored parts are JSON, and joining their text is ten times cheaper than parsing 10,000 messages
// only to serialize them again. Such a reply still reads like any other (`Parts` parses on first
// use); `chatReplyJson` writes it without ever parsing.
import type { ReplyPart } from '../../engine/types.js';

export interface ChatReply {
  Parts: ReplyPart[];
  UserId: string;
  Creation: string;
  EnableUserChat: boolean;
  ControlType: number;
}

const PARTS_JSON = Symbol('partsJson');

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

/** The reply as JSON text, with the fields in wire order. */
export function chatReplyJson(reply: ChatReply): string {
  const partsJson = (reply as WithJson)[PARTS_JSON] ?? JSON.stringify(reply.Parts);
  const rest = JSON.stringify({ UserId: reply.UserId, Creation: reply.Creation, EnableUserChat: reply.EnableUserChat, ControlType: reply.ControlType });
  return `{"Parts":${partsJson},${rest.slice(1)}`;
}
