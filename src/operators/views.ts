// What the console and share pages receive: conversations, transcript lines and live events in
// the API's PascalCase wire form, built from store records and the event bus's events.
import type { ConversationEvent } from '../conversations/events.js';
import type { StateView } from '../conversations/control-service.js';
import type { ReplyPart } from '../engine/types.js';
import type { Clock } from '../shared/clock.js';
import type { ConversationRecord, StoredMessage } from '../conversations/model.js';
import type { BotRecord } from '../bots/model.js';
import type { ActivityRecord, Assignment, InboxRecord, NoteRecord } from './model.js';

export interface ConversationSummary extends StateView {
  /** a readable name from the conversation's `name` or `first_name` (+ `last_name`) variable, or null */
  Name: string | null;
  BotId: string;
  BotName: string;
  Channel: string;
  Creation: string;
  LastActivity: string;
  /** a short text of the last message, for the list */
  Preview: string;
}

/** The console's form: also who among the operators has it, and since when its state holds (not on share pages). */
export interface ConsoleSummary extends ConversationSummary {
  /** when the control state last changed: for state 1, since when the user waits for a person */
  StateSince: string;
  /** the operator who has the conversation in the console, or null */
  AssignedTo: AssigneeView | null;
  /** the display name of the operator in `Operator` (what the visitor sees), or null */
  OperatorName: string | null;
  /** open, resolved or snoozed: a message after the resolve or snooze, or the snooze's end, opens it again */
  Status: InboxStatus;
  SnoozedUntil: string | null;
  Team: { TeamId: number; Name: string } | null;
}

/** An entry of the console's list: also how many of its agent's tool calls wait for an operator's decision. */
export interface ConsoleListEntry extends ConsoleSummary {
  PendingApprovals: number;
}

export type InboxStatus = 'open' | 'resolved' | 'snoozed';

/** The status as it reads now; nothing is written when a message or the clock reopens a conversation. */
export function inboxStatus(record: InboxRecord | undefined, lastActivity: number, now: number): InboxStatus {
  if (!record?.status || lastActivity > record.changedAt) return 'open';
  if (record.status === 'snoozed' && (record.snoozedUntil ?? 0) <= now) return 'open';
  return record.status;
}

export interface ActivityView {
  Kind: string;
  Actor: string;
  Detail: string | null;
  At: string;
}

export const activityView = (a: ActivityRecord, clock: Clock): ActivityView => ({ Kind: a.kind, Actor: a.actor, Detail: a.detail, At: clock.iso(a.createdAt) });

export interface AssigneeView {
  OperatorId: string;
  Name: string;
  Email: string;
}

export interface NoteView {
  NoteId: number;
  Author: string;
  Text: string;
  At: string;
}

export const assigneeOf = (a: Assignment | undefined): AssigneeView | null => (a ? { OperatorId: a.operatorId, Name: a.operatorName, Email: a.operatorEmail } : null);

export const noteView = (n: NoteRecord, clock: Clock): NoteView => ({ NoteId: n.id, Author: n.author, Text: n.text, At: clock.iso(n.createdAt) });

export interface TranscriptLine {
  Direction: string;
  At: string;
  Parts: ReplyPart[];
}

export const transcriptOf = (messages: StoredMessage[], clock: Clock): TranscriptLine[] => messages.map((m) => ({ Direction: m.direction, At: clock.iso(m.createdAt), Parts: m.parts }));

/** The first text found in the parts (depth first), cut to a list line. */
export function previewOf(parts: ReplyPart[]): string {
  const stack = [...parts];
  while (stack.length > 0) {
    const part = stack.shift()!;
    const text = part.Text ?? part.Title ?? null;
    if (text) return text.length > 120 ? `${text.slice(0, 119)}…` : text;
    stack.unshift(...part.Parts);
  }
  return '';
}

/** Every text of the parts (depth first) in one line: where a search hit is looked for. */
export function textOf(parts: ReplyPart[]): string {
  const texts: string[] = [];
  const stack = [...parts];
  while (stack.length > 0 && texts.length < 50) {
    const part = stack.shift()!;
    if (part.Text) texts.push(part.Text);
    stack.unshift(...part.Parts);
  }
  return texts.join(' ');
}

export const botSummary = (bot: BotRecord) => ({ BotId: bot.id, BotName: bot.name });

const NAME_LENGTH = 80;

/** What to call the person: the `name` variable, else `first_name` and `last_name`; null when neither is set. */
export function readableName(variables: Record<string, string>): string | null {
  const full = (variables.name ?? [variables.first_name, variables.last_name].filter(Boolean).join(' ')).trim();
  return full === '' ? null : full.slice(0, NAME_LENGTH);
}

/** The side panel of the console: what the conversation knows about the person (api.md section 6, console form). */
export function contactOf(c: ConversationRecord) {
  return {
    Variables: Object.entries(c.state.variables).map(([Name, Value]) => ({ Name, Value })),
    Tags: c.state.tags,
    PrivacyFlags: Object.entries(c.state.privacy).map(([Name, Enabled]) => ({ Name, Enabled })),
    Channel: c.channel,
  };
}

/** A bus event as the browser receives it (one JSON object per Server-Sent Event). */
export function eventView(event: ConversationEvent, clock: Clock): Record<string, unknown> {
  const base = { BotId: event.botId, UserId: event.userId, Channel: event.channel, At: clock.iso(event.at) };
  switch (event.kind) {
    case 'message':
      // Truncated: too large to relay between nodes; the page reads the transcript again anyway.
      return { Kind: 'message', ...base, Direction: event.direction, Parts: event.parts, ...(event.truncated ? { Truncated: true } : {}) };
    case 'state':
      return { Kind: 'state', ...base, State: event.state, Operator: event.operator };
    case 'forgotten':
      return { Kind: 'forgotten', ...base };
    case 'typing':
      return { Kind: 'typing', ...base, OperatorName: event.operatorName };
    case 'visitorTyping':
      return { Kind: 'visitorTyping', ...base };
    case 'delta':
      return { Kind: 'delta', ...base, Text: event.text, Offset: event.offset, ...(event.failed ? { Failed: true } : {}), ...(event.question !== undefined ? { Question: event.question } : {}) };
  }
}
