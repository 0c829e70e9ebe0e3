// The operator console's use cases: list and open the conversations of the operator's account's
// bots, control them (take over, hand back, ban, unban, forget) and write to the user. Control
// goes through ControlService and messages through the conversation service's injection, so
// the console does exactly what the integration API does, and reaches the user the same way.
import { STATE_REQUESTED, STATE_TAKEN_OVER } from '../conversations/control.js';
import type { ControlService, HandoverMode, StateChange } from '../conversations/control-service.js';
import type { ConversationEvent, EventBus } from '../conversations/events.js';
import type { ConversationService } from '../conversations/service.js';
import { LIMITS } from '../conversations/limits.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ConsoleStorage } from './port.js';
import type { OperatorContext } from './sessions.js';
import {
  activityView,
  assigneeOf,
  botSummary,
  contactOf,
  inboxStatus,
  noteView,
  previewOf,
  readableName,
  transcriptOf,
  type ActivityView,
  type ConsoleListEntry,
  type ConsoleSummary,
  type NoteView,
  type TranscriptLine,
} from './views.js';
import type { Assignment, InboxRecord } from './model.js';
import type { ConversationRecord, StoredMessage } from '../conversations/model.js';
import type { BotRecord } from '../bots/model.js';

export const LIST_LIMIT = 200;
export const TRANSCRIPT_LIMIT = 500;
export const NOTES_LIMIT = LIMITS.notesPerConversation;

export interface ConversationDetail {
  Conversation: ConsoleSummary;
  Transcript: TranscriptLine[];
  /** private notes between operators: only ever shown in the console */
  Notes: NoteView[];
  /** variables, tags, privacy flags and channel, for the console's side panel */
  Contact: ReturnType<typeof contactOf>;
  /** what operators did (taken over, handed back, banned, resolved…), shown between the messages by time */
  Activity: ActivityView[];
}

/** What the summary needs besides the conversation: its console records and the account's operator names. */
interface Around {
  assignment: Assignment | undefined;
  inbox: InboxRecord | undefined;
  names: Map<string, string>;
  lastActivity: number;
}

export class ConsoleService {
  /** How often an operator's live stream sends a comment line and checks the session and role still hold. */
  heartbeatMs = 15_000;

  constructor(private readonly deps: { store: ConsoleStorage; control: ControlService; conversations: ConversationService; events: EventBus; clock: Clock }) {}

  /** Requested first, then taken over, then by last activity (the store orders them). */
  async list(ctx: OperatorContext): Promise<ConsoleListEntry[]> {
    const bots = await this.deps.store.bots.byAccount(ctx.account.id);
    const byId = new Map(bots.map((b) => [b.id, b]));
    const rows = await this.deps.store.conversations.listByBots([...byId.keys()], LIST_LIMIT);
    const ids = rows.map((c) => c.id);
    const [assignments, inbox, names, approvals] = await Promise.all([
      this.deps.store.assignments.ofConversations(ids),
      this.deps.store.inbox.ofConversations(ids),
      this.operatorNames(ctx),
      this.deps.store.agentApprovals.pendingCounts(ids),
    ]);
    return rows.map((c) => ({
      ...this.summary(byId.get(c.botId)!, c, { assignment: assignments.get(c.id), inbox: inbox.get(c.id), names, lastActivity: c.lastActivity }),
      Preview: previewOf(c.lastParts),
      PendingApprovals: approvals.get(c.id) ?? 0,
    }));
  }

  async open(ctx: OperatorContext, botId: string, userId: string): Promise<ConversationDetail> {
    const { bot, conversation } = await this.find(ctx, botId, userId);
    const messages = await this.deps.store.conversations.storedMessages(conversation.id, TRANSCRIPT_LIMIT);
    const [assignments, inbox, names, notes, activity] = await Promise.all([
      this.deps.store.assignments.ofConversations([conversation.id]),
      this.deps.store.inbox.ofConversations([conversation.id]),
      this.operatorNames(ctx),
      this.deps.store.notes.ofConversation(conversation.id, NOTES_LIMIT),
      this.deps.store.activity.ofConversation(conversation.id, NOTES_LIMIT),
    ]);
    const last = messages.at(-1);
    const around = { assignment: assignments.get(conversation.id), inbox: inbox.get(conversation.id), names, lastActivity: last?.createdAt ?? conversation.createdAt };
    return {
      Conversation: { ...this.summary(bot, conversation, around), Preview: previewOf(previewMessage(conversation, messages)?.parts ?? []) },
      Transcript: transcriptOf(messages, this.deps.clock),
      Notes: notes.map((n) => noteView(n, this.deps.clock)),
      Contact: contactOf(conversation),
      Activity: activity.map((a) => activityView(a, this.deps.clock)),
    };
  }

  /** A line of what an operator did, signed with their display name (kept when they are gone). */
  async record(ctx: OperatorContext, conversationId: number, kind: string, detail: string | null = null): Promise<void> {
    await this.deps.store.activity.insert({ conversationId, kind, actor: ctx.operator.name || ctx.operator.email, detail, createdAt: this.deps.clock.now() });
  }

  /** The account's operators' display names by e-mail: the console shows names, as the visitor sees them. */
  private async operatorNames(ctx: OperatorContext): Promise<Map<string, string>> {
    return new Map((await this.deps.store.operators.ofAccount(ctx.account.id)).map((o) => [o.email, o.name || o.email]));
  }

  /**
   * The operator's own e-mail goes into `Operator`, as in POST /custom/state; whoever takes over
   * is assigned the conversation (after the takeover committed: a failed one assigns nobody).
   */
  async takeover(ctx: OperatorContext, botId: string, userId: string) {
    const { bot, conversation } = await this.find(ctx, botId, userId);
    const result = await this.deps.control.change(bot, userId, { state: 'takeover', operator: ctx.operator.email });
    await this.deps.store.assignments.assign(conversation.id, ctx.operator.id, this.deps.clock.now());
    await this.record(ctx, conversation.id, 'takeover');
    return result;
  }

  handover(ctx: OperatorContext, botId: string, userId: string, mode: HandoverMode) {
    return this.change(ctx, botId, userId, { state: 'handover', mode }, 'handover');
  }

  ban(ctx: OperatorContext, botId: string, userId: string, days?: number, message?: string) {
    return this.change(ctx, botId, userId, { state: 'ban', days, message }, 'ban', days ? `${days} d` : null);
  }

  unban(ctx: OperatorContext, botId: string, userId: string) {
    return this.change(ctx, botId, userId, { state: 'unban' }, 'unban');
  }

  forget(ctx: OperatorContext, botId: string, userId: string) {
    return this.change(ctx, botId, userId, { state: 'forget' });
  }

  /**
   * An operator line to the user. The console only writes into conversations it has taken over,
   * so the bot and a person never answer the user at the same time.
   */
  async send(ctx: OperatorContext, botId: string, userId: string, text: string) {
    const { bot, conversation } = await this.find(ctx, botId, userId);
    if (this.deps.control.view(conversation).State !== STATE_TAKEN_OVER) {
      throw new AppError('STATE_CONFLICT', 'Take the conversation over before writing to the user.', { State: this.deps.control.view(conversation).State });
    }
    const reply = await this.deps.conversations.inject(bot, conversation, { direction: 'OPERATOR', text });
    return { Parts: reply.Parts };
  }

  /**
   * Live events of the account's bots. Bots created after the stream opened are looked up once
   * and remembered, so a new bot's conversations show up without reconnecting.
   */
  subscribe(ctx: OperatorContext, deliver: (event: ConversationEvent) => void): () => void {
    const mine = new Map<string, Promise<boolean>>();
    const owns = (botId: string) => {
      let known = mine.get(botId);
      if (!known) {
        known = this.deps.store.bots.byId(botId).then(
          (b) => b?.accountId === ctx.account.id,
          () => false,
        );
        mine.set(botId, known);
      }
      return known;
    };
    // Events are delivered in the order they were published, even while a bot lookup is pending.
    let queue: Promise<void> = Promise.resolve();
    return this.deps.events.subscribe((event) => {
      queue = queue.then(async () => {
        if (await owns(event.botId)) deliver(event);
      });
    });
  }

  private async change(ctx: OperatorContext, botId: string, userId: string, change: StateChange, activity?: string, detail: string | null = null) {
    const { bot, conversation } = await this.find(ctx, botId, userId);
    const result = await this.deps.control.change(bot, userId, change);
    if (activity) await this.record(ctx, conversation.id, activity, detail);
    return result;
  }

  /** Another account's bot or conversation answers exactly as a missing one: 404. */
  async find(ctx: OperatorContext, botId: string, userId: string): Promise<{ bot: BotRecord; conversation: ConversationRecord }> {
    const bot = await this.deps.store.bots.byId(botId);
    if (!bot || bot.accountId !== ctx.account.id) throw new AppError('CONVERSATION_NOT_FOUND');
    const conversation = await this.deps.store.conversations.byUser(bot.id, userId);
    if (!conversation || conversation.forgetting) throw new AppError('CONVERSATION_NOT_FOUND');
    return { bot, conversation };
  }

  private summary(bot: BotRecord, c: ConversationRecord, around: Around): Omit<ConsoleSummary, 'Preview'> {
    const { assignment, inbox, names, lastActivity } = around;
    const view = this.deps.control.view(c);
    const status = inboxStatus(inbox, lastActivity, this.deps.clock.now());
    return {
      ...botSummary(bot),
      ...view,
      OperatorName: view.Operator ? (names.get(view.Operator) ?? null) : null,
      Status: status,
      SnoozedUntil: status === 'snoozed' && inbox?.snoozedUntil ? this.deps.clock.iso(inbox.snoozedUntil) : null,
      Team: inbox?.team ? { TeamId: inbox.team.id, Name: inbox.team.name } : null,
      LastActivity: this.deps.clock.iso(lastActivity),
      Name: readableName(c.state.variables),
      Channel: c.channel,
      Creation: this.deps.clock.iso(c.createdAt),
      StateSince: this.deps.clock.iso(c.controlChangedAt),
      AssignedTo: assigneeOf(assignment),
    };
  }
}

/** The line the list shows: a conversation waiting for a person shows the visitor's last words. */
function previewMessage(c: ConversationRecord, messages: StoredMessage[]): StoredMessage | undefined {
  if (c.controlState === STATE_REQUESTED) {
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i].direction === 'USER') return messages[i];
  }
  return messages.at(-1);
}
