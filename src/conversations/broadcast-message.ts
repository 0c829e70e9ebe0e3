// A broadcast that carries its own message (docs/broadcasts.md "A message of its own"): the text
// and buttons written in the broadcast, turned into the reply parts a bot's `buttons` action makes
// (Type 13 with Button / Link children, or a plain Type 0 text). A button that starts a behaviour
// gets the payload `broadcast:<id>:<index>`: a click on it is resolved against the broadcast it
// came from (the bot's own broadcast, read when clicked), never against a name the client sent.
import type { ConversationState, ReplyPart } from '../engine/types.js';
import { PartType } from '../engine/parts.js';
import { renderTemplate } from '../shared/template.js';
import type { BroadcastMessage } from './model.js';

/** What a click on a broadcast message's button does: the user said its title and goes to its behaviour. */
export interface BroadcastButtonClick {
  broadcastId: string;
  title: string;
  behaviour: string;
}

const PAYLOAD = /^broadcast:([0-9a-f-]{36}):(\d{1,2})$/;

export const buttonPayload = (broadcastId: string, index: number) => `broadcast:${broadcastId}:${index}`;

/** The broadcast and the button's index a command names, or null when it is no broadcast button's. */
export function parseButtonPayload(command: string | undefined): { broadcastId: string; index: number } | null {
  const match = command === undefined ? null : PAYLOAD.exec(command);
  return match ? { broadcastId: match[1], index: Number(match[2]) } : null;
}

/** The message's parts for one conversation: its {{variables}} filled in, where the conversation stands. */
export function broadcastMessageParts(broadcastId: string, message: BroadcastMessage, state: ConversationState): ReplyPart[] {
  const render = (text: string) => renderTemplate(text, state.variables);
  const part = (Type: number, fields: Partial<ReplyPart>): ReplyPart => ({
    Type,
    Text: null,
    Command: null,
    TypeDelay: 0,
    BehaviourName: state.position?.behaviour ?? '',
    InteractionName: state.position?.interaction ?? '',
    Parts: [],
    ...fields,
  });
  const buttons = message.Buttons ?? [];
  if (buttons.length === 0) return [part(PartType.Text, { Text: render(message.Text) })];
  const children = buttons.map((b, i) =>
    b.Url !== undefined ? part(PartType.Link, { Text: render(b.Title), Url: render(b.Url) }) : part(PartType.Button, { Text: render(b.Title), Command: buttonPayload(broadcastId, i) }),
  );
  return [part(PartType.Buttons, { Text: render(message.Text), Parts: children })];
}
