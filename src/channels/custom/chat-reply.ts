// The chat reply on the wire (api.md section 3), written with the fields in wire order and
// without re-serializing parts that are already JSON text (READY, see conversations/reply.ts).
import { partsJsonOf, type ChatReply } from '../../conversations/reply.js';

export function chatReplyJson(reply: ChatReply): string {
  const rest = JSON.stringify({ UserId: reply.UserId, Creation: reply.Creation, EnableUserChat: reply.EnableUserChat, ControlType: reply.ControlType });
  return `{"Parts":${partsJsonOf(reply)},${rest.slice(1)}`;
}
