// The designer's preview chat (docs/designer.md "Preview"): POST /custom/chat's body and reply, run
// on a bot's DRAFT by the one conversation service and the custom channel's own ChatService, so a
// preview turn is a real turn (its HTTP and AI calls are made and counted in usage). What keeps
// preview conversations apart from real ones:
// - they belong to the bot's preview twin (store/preview.ts), another bot id that no list,
//   analytics query, console route or missed-text read of the real bot ever names;
// - their turns run through a turn pipeline of their own whose storage writes no missed texts and
//   no outbox rows (no webhooks, no platform deliveries) and whose events reach no one;
// - their messages and replies are not counted in usage (their HTTP and AI calls are);
// - at most PREVIEW_CONVERSATIONS_PER_BOT are kept per bot, and maintenance deletes those idle
//   for PREVIEW_HOURS.
import type { BotFile } from '../engine/bot-file.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import { attachDraftModel } from '../bots/live-models.js';
import type { UsageAdded } from '../accounts/model.js';
import type { BotRecord } from '../bots/model.js';
import { validateBotFile } from '../bots/validate.js';
import { ChatService, type ChatInput, type ChatReply } from '../channels/custom/chat-service.js';
import type { ConversationEvent, EventBus } from '../conversations/events.js';
import type { ConversationStorage } from '../conversations/port.js';
import { ConversationService, type ConversationServiceDeps } from '../conversations/service.js';
import { ConversationTurns } from '../conversations/turns.js';
import { compileBot, type CompiledBot } from '../engine/compile.js';
import { PartType } from '../engine/parts.js';
import type { ReplyPart, TurnMatch } from '../engine/types.js';
import { matchOf } from '../conversations/reply.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { PreviewStorage } from './port.js';

/** Preview conversations kept per bot: a new one beyond this deletes the least recently active. */
export const PREVIEW_CONVERSATIONS_PER_BOT = 50;
/** A preview conversation idle this long is deleted by the maintenance pass. */
export const PREVIEW_HOURS = 24;
/** Compiled drafts kept in memory (one per bot, the least recently compiled goes first). */
const CACHED_DRAFTS = 100;

const TWIN_SUFFIX = '.preview';
export const previewTwinId = (botId: string) => `${botId}${TWIN_SUFFIX}`;
const realIdOf = (twinId: string) => twinId.slice(0, -TWIN_SUFFIX.length);

/** A reply part of a preview, saying which interaction of the draft it came from. */
export type PreviewPart = ReplyPart & { Source?: { Behaviour: string; Interaction: string } };
/** What took the user text, in the wire's words (docs/designer.md "Why the bot answered"). */
export interface PreviewMatch {
  Kind: TurnMatch['kind'];
  Name: string;
  Score?: number | 'ai';
  Trigger?: { Behaviour: string | null; Index: number };
  BestIntent?: { Name: string; Score: number };
  Behaviour: string | null;
  Interaction: string | null;
}
export type PreviewReply = Omit<ChatReply, 'Parts'> & { Parts: PreviewPart[]; Matched?: PreviewMatch };

const NO_EVENTS: EventBus = { wanted: () => false, publish: (_event: ConversationEvent) => undefined, subscribe: () => () => undefined };

export type PreviewDeps = Omit<ConversationServiceDeps, 'store' | 'live' | 'turns'> & { store: PreviewStorage; clock: Clock };

export class Preview {
  /** the preview's own turn pipeline (main.ts drains it on shutdown) */
  readonly turns: ConversationTurns;
  private readonly chat: ChatService;
  private readonly drafts = new Map<string, { version: number; compiled: Promise<CompiledBot> }>();
  /** the real bot of each twin this node previewed, for the twin's row (made with its first conversation) */
  private readonly owners = new Map<string, BotRecord>();

  constructor(private readonly deps: PreviewDeps) {
    const storage = previewStorage(
      deps.store,
      (twinId) => this.owners.get(twinId),
      () => deps.clock.now(),
    );
    this.turns = new ConversationTurns(storage, deps.clock, NO_EVENTS);
    const { ai, knowledge, secrets, agentModel, mcp } = deps;
    const conversations = new ConversationService({
      ...deps,
      explainTurns: true,
      store: storage,
      turns: this.turns,
      live: { get: (twin) => this.compiledDraft(twin) },
      // The real bot's AI provider (its own settings are kept under its id, not the twin's).
      ai: ai ? (twin, conversationId, request) => ai({ ...twin, id: realIdOf(twin.id) }, conversationId, request) : undefined,
      // The real bot's knowledge sources (kept under its id, and not part of a draft).
      knowledge: knowledge ? (twin, request) => knowledge({ ...twin, id: realIdOf(twin.id) }, request) : undefined,
      // The real bot's secrets, by the same rule (its hosts) as in real conversations.
      secrets: secrets ? { fill: (twinId, request) => secrets.fill(realIdOf(twinId), request) } : undefined,
      // An agent's model (the bot's provider and day budget) and its MCP servers: the real bot's too.
      agentModel: agentModel ? (twin, conversationId, request, budget) => agentModel({ ...twin, id: realIdOf(twin.id) }, conversationId, request, budget) : undefined,
      mcp: mcp
        ? { toolsFor: (twinId, servers) => mcp.toolsFor(realIdOf(twinId), servers), call: (twinId, server, tool, args, timeoutMs) => mcp.call(realIdOf(twinId), server, tool, args, timeoutMs) }
        : undefined,
    });
    this.chat = new ChatService(conversations);
  }

  /** One preview request; 400 INVALID_BOT (with Problems) when the draft does not validate. */
  async say(bot: BotRecord, input: ChatInput): Promise<PreviewReply> {
    const twinId = previewTwinId(bot.id);
    // No row yet: the twin's row is written with its first conversation, in that transaction, so a
    // refused preview request leaves the database as it was.
    this.owners.set(twinId, bot);
    const custom = bot.settings.channels?.custom;
    const twin: BotRecord = {
      ...bot,
      id: twinId,
      // No webhook: a preview's messages go nowhere but to the designer.
      settings: { ...bot.settings, channels: { ...bot.settings.channels, custom: { ...custom, webhookUrl: null, includeAllChannels: false } } },
    };
    return withSources(await this.chat.chat(twin, input));
  }

  /** Deletes preview conversations idle for PREVIEW_HOURS (a maintenance chore). */
  prune(): Promise<number> {
    return this.deps.store.preview.removeIdle(this.deps.clock.now() - PREVIEW_HOURS * 3_600_000);
  }

  /** The draft of the twin's bot, validated and compiled once per bot version. */
  private compiledDraft(twin: BotRecord): Promise<CompiledBot> {
    const botId = realIdOf(twin.id);
    const cached = this.drafts.get(botId);
    if (cached?.version === twin.version) return cached.compiled;
    const compiled = this.compile(twin, botId);
    // A failed compile is not kept, as trainModel keeps no failed training: a busy training
    // queue (503 TRAINING_BUSY) must not answer every later preview of this version.
    compiled.catch(() => {
      if (this.drafts.get(botId)?.compiled === compiled) this.drafts.delete(botId);
    });
    this.drafts.delete(botId);
    this.drafts.set(botId, { version: twin.version, compiled });
    while (this.drafts.size > CACHED_DRAFTS) this.drafts.delete(this.drafts.keys().next().value!);
    return compiled;
  }

  private async compile(twin: BotRecord, botId: string): Promise<CompiledBot> {
    const draft = await this.deps.store.bots.draft(botId);
    if (!draft) throw new AppError('BOT_NOT_FOUND');
    // A draft kept with problems is not run (nor the last one without, which is not what the designer shows).
    const pending = await this.deps.store.bots.draftWithProblems(botId);
    if (pending) throw new AppError('INVALID_BOT', `The draft has ${pending.problems.length} problem(s); fix them before trying it.`, { Problems: pending.problems });
    const document: BotFile = { format: BOT_FORMAT, name: twin.name, settings: twin.settings, ...draft };
    const result = validateBotFile(document);
    if (!result.ok) throw new AppError('INVALID_BOT', `The draft has ${result.problems.length} problem(s); fix them before trying it.`, { Problems: result.problems });
    const compiled = compileBot(result.bot);
    await attachDraftModel(compiled, draft);
    return compiled;
  }
}

/** Each part the bot said names the interaction it came from, for the designer to highlight. */
function withSources(reply: ChatReply): PreviewReply {
  const parts = reply.Parts.map(
    (part): PreviewPart => (part.Type === PartType.UserText || !part.InteractionName ? part : { ...part, Source: { Behaviour: part.BehaviourName, Interaction: part.InteractionName } }),
  );
  // Built member by member: a READY reply carries its stored JSON text, which must not be sent instead.
  const answer: PreviewReply = { Parts: parts, UserId: reply.UserId, Creation: reply.Creation, EnableUserChat: reply.EnableUserChat, ControlType: reply.ControlType };
  const matched = matchOf(reply);
  if (matched) answer.Matched = wireMatch(matched);
  return answer;
}

function wireMatch(m: TurnMatch): PreviewMatch {
  return {
    Kind: m.kind,
    Name: m.name,
    ...(m.score === null ? {} : { Score: m.score }),
    ...(m.trigger === null ? {} : { Trigger: { Behaviour: m.trigger.behaviour, Index: m.trigger.index } }),
    ...(m.bestIntent === null ? {} : { BestIntent: { Name: m.bestIntent.name, Score: m.bestIntent.score } }),
    Behaviour: m.to?.behaviour ?? null,
    Interaction: m.to?.interaction ?? null,
  };
}

/** The store, as preview turns see it: no missed texts, no outbox rows, no analytics counts, a bounded number of conversations. */
function previewStorage(store: PreviewStorage, ownerOf: (twinId: string) => BotRecord | undefined, now: () => number): ConversationStorage {
  return {
    conversations: store.conversations,
    shares: store.shares,
    bots: store.bots,
    broadcasts: store.broadcasts,
    saveTurn: (turn) => store.saveTurn({ ...turn, missedTexts: [], usage: turn.usage && { ...turn.usage, add: callsOnly(turn.usage.add) } }),
    transaction: (work) =>
      store.transaction((tx) =>
        work({
          ...tx,
          conversations: {
            ...tx.conversations,
            insert: async (conversation) => {
              const owner = ownerOf(conversation.botId);
              if (owner) await tx.preview.ensureTwin(owner, conversation.botId, now());
              const id = await tx.conversations.insert(conversation);
              if (id !== null) await tx.preview.keepNewest(conversation.botId, PREVIEW_CONVERSATIONS_PER_BOT);
              return id;
            },
          },
          accounts: { ...tx.accounts, addUsage: (accountId, month, add) => tx.accounts.addUsage(accountId, month, callsOnly(add)) },
          missedTexts: { add: async () => undefined },
          outbox: { insert: async () => undefined },
          analytics: { addCsat: async () => undefined, countKnowledgeQuestions: async () => undefined },
        }),
      ),
    eraseDeleted: () => store.eraseDeleted(),
  };
}

/**
 * A preview is not a conversation of the bot's users: its messages, replies and notifications are
 * not counted in the account's usage; the HTTP and AI calls it made are (docs/designer.md).
 */
function callsOnly(add: UsageAdded): UsageAdded {
  return { ...add, messages: 0, replies: 0, notifications: 0 };
}
