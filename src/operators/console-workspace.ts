// What operators do around a conversation besides controlling it: assign it among themselves,
// leave private notes, keep canned responses, and tell the user they are typing. Assignments,
// notes and canned responses are the console's own records, not conversation state: they never
// reach the user, the bot or a webhook, so they are plain writes rather than turns
// (docs/decisions.md "Console assignment"). Typing is a live event only; nothing is stored.
import { STATE_TAKEN_OVER } from '../conversations/control.js';
import type { ControlService } from '../conversations/control-service.js';
import type { EventBus } from '../conversations/events.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { WorkspaceStorage } from './port.js';
import { NOTES_LIMIT, type ConsoleService } from './console-service.js';
import type { CannedResponse } from './model.js';
import type { OperatorContext } from './sessions.js';
import { assigneeOf, noteView, type AssigneeView, type NoteView } from './views.js';

/** An account keeps at most this many canned responses (docs/limits.md). */
export const CANNED_LIMIT = 200;

export interface CannedView {
  CannedId: number;
  Shortcut: string;
  Text: string;
}

const cannedView = (c: CannedResponse): CannedView => ({ CannedId: c.id, Shortcut: c.shortcut, Text: c.text });

export class ConsoleWorkspace {
  constructor(private readonly deps: { store: WorkspaceStorage; console: ConsoleService; control: ControlService; events: EventBus; clock: Clock }) {}

  /** Assigns to `operatorId` (an operator of the same account), or to the signed-in operator. */
  async assign(ctx: OperatorContext, botId: string, userId: string, operatorId?: string): Promise<{ AssignedTo: AssigneeView | null }> {
    const { conversation } = await this.deps.console.find(ctx, botId, userId);
    const operator = operatorId === undefined ? ctx.operator : await this.deps.store.operators.byId(operatorId);
    if (!operator || operator.accountId !== ctx.account.id) throw new AppError('OPERATOR_NOT_FOUND', 'No operator of this account has this id.', { Field: 'OperatorId' });
    await this.deps.store.assignments.assign(conversation.id, operator.id, this.deps.clock.now());
    return { AssignedTo: assigneeOf((await this.deps.store.assignments.ofConversations([conversation.id])).get(conversation.id)) };
  }

  async unassign(ctx: OperatorContext, botId: string, userId: string): Promise<{ AssignedTo: null }> {
    const { conversation } = await this.deps.console.find(ctx, botId, userId);
    await this.deps.store.assignments.unassign(conversation.id);
    return { AssignedTo: null };
  }

  /** A note for the other operators, signed with the author's name. */
  async addNote(ctx: OperatorContext, botId: string, userId: string, text: string): Promise<NoteView> {
    const { conversation } = await this.deps.console.find(ctx, botId, userId);
    const trimmed = text.trim();
    if (trimmed === '') throw new AppError('INVALID_REQUEST', 'A note needs some text.', { Field: 'Text' });
    const note = await this.deps.store.transaction((tx) =>
      tx.notes.insert({ conversationId: conversation.id, author: ctx.operator.name || ctx.operator.email, text: trimmed, createdAt: this.deps.clock.now() }, ctx.operator.id, NOTES_LIMIT),
    );
    return noteView(note, this.deps.clock);
  }

  /**
   * "Operator is typing" for the user's widget. Only the operator who has the conversation taken
   * over may type to the user; the console throttles these, the route's rate limit bounds the rest.
   */
  async typing(ctx: OperatorContext, botId: string, userId: string): Promise<{ Sent: true }> {
    const { conversation } = await this.deps.console.find(ctx, botId, userId);
    const view = this.deps.control.view(conversation);
    if (view.State !== STATE_TAKEN_OVER) throw new AppError('STATE_CONFLICT', 'Take the conversation over before writing to the user.', { State: view.State });
    this.deps.events.publish({
      kind: 'typing',
      botId: conversation.botId,
      userId: conversation.userId,
      channel: conversation.channel,
      operatorName: ctx.operator.name || 'Operator',
      at: this.deps.clock.now(),
    });
    return { Sent: true };
  }

  async cannedResponses(ctx: OperatorContext): Promise<{ CannedResponses: CannedView[] }> {
    return { CannedResponses: (await this.deps.store.cannedResponses.ofAccount(ctx.account.id)).map(cannedView) };
  }

  async createCanned(ctx: OperatorContext, shortcut: string, text: string): Promise<CannedView> {
    const fields = cannedFields(shortcut, text);
    const created = await this.deps.store.transaction((tx) => tx.cannedResponses.insert({ accountId: ctx.account.id, ...fields, updatedAt: this.deps.clock.now() }, CANNED_LIMIT));
    if (created === 'full') {
      throw new AppError('LIMIT_EXCEEDED', `An account keeps at most ${CANNED_LIMIT} canned responses.`, { Limit: 'CannedResponsesPerAccount', Max: CANNED_LIMIT });
    }
    if (!created) throw shortcutTaken(fields.shortcut);
    return cannedView(created);
  }

  async updateCanned(ctx: OperatorContext, id: number, shortcut: string, text: string): Promise<CannedView> {
    const record = { id, accountId: ctx.account.id, ...cannedFields(shortcut, text), updatedAt: this.deps.clock.now() };
    const outcome = await this.deps.store.cannedResponses.update(record);
    if (outcome === 'missing') throw new AppError('CANNED_RESPONSE_NOT_FOUND');
    if (outcome === 'taken') throw shortcutTaken(record.shortcut);
    return cannedView(record);
  }

  async deleteCanned(ctx: OperatorContext, id: number): Promise<{ Deleted: true }> {
    if (!(await this.deps.store.cannedResponses.remove(ctx.account.id, id))) throw new AppError('CANNED_RESPONSE_NOT_FOUND');
    return { Deleted: true };
  }
}

// A shortcut is typed after `/` in the composer: one word of letters, digits, - and _.
const SHORTCUT = /^[\p{L}\p{N}_-]{1,40}$/u;

function cannedFields(shortcut: string, text: string): { shortcut: string; text: string } {
  const cleanShortcut = shortcut.trim().toLowerCase();
  if (!SHORTCUT.test(cleanShortcut)) throw new AppError('INVALID_REQUEST', 'A shortcut is one word (letters, digits, - or _), at most 40 characters.', { Field: 'Shortcut' });
  if (text.trim() === '') throw new AppError('INVALID_REQUEST', 'A canned response needs some text.', { Field: 'Text' });
  return { shortcut: cleanShortcut, text: text.trim() };
}

const shortcutTaken = (shortcut: string) => new AppError('CONFLICT', `The account already has a canned response /${shortcut}.`, { Field: 'Shortcut' });
