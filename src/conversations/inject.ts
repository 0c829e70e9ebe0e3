// Parts injected with DIRECTION BOT or OPERATOR: the client's text and rich parts, turned into
// well-formed reply parts. Their buttons get fresh payloads that no bot knows, so a click on one
// runs the fallback (api.md section 3) instead of an operation the client made up.
import crypto from 'node:crypto';
import { PartType } from '../engine/parts.js';
import type { Position, ReplyPart } from '../engine/types.js';

const BUTTON_TYPE = PartType.Button;
const TEXT_TYPE = PartType.Text;

export function injectedParts(text: string | undefined, parts: unknown[] | undefined, position: Position): ReplyPart[] {
  const out: ReplyPart[] = [];
  if (text !== undefined && text !== '') out.push(part({ Type: TEXT_TYPE, Text: text }, position));
  for (const raw of parts ?? []) out.push(part(raw as Record<string, unknown>, position));
  return out;
}

function part(raw: Record<string, unknown>, position: Position): ReplyPart {
  const type = Number.isInteger(raw.Type) ? (raw.Type as number) : TEXT_TYPE;
  const result: ReplyPart = {
    Type: type,
    Text: typeof raw.Text === 'string' ? raw.Text : null,
    Command: type === BUTTON_TYPE ? crypto.randomUUID() : null,
    TypeDelay: Number.isInteger(raw.TypeDelay) && (raw.TypeDelay as number) >= 0 ? (raw.TypeDelay as number) : 0,
    BehaviourName: position.behaviour,
    InteractionName: position.interaction,
    Parts: Array.isArray(raw.Parts) ? raw.Parts.map((child) => part(child as Record<string, unknown>, position)) : [],
  };
  for (const field of ['Url', 'Title', 'Subtitle', 'ImageUrl'] as const) {
    if (typeof raw[field] === 'string') result[field] = raw[field] as string;
  }
  return result;
}
