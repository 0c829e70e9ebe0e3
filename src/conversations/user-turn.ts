// A user's message, on whatever channel: RESET, a text, a button payload, a forced position, with
// variables and tags applied first — run through the engine as one turn.
import type { CompiledBot } from '../engine/compile.js';
import { copyState } from '../engine/state.js';
import { PartType } from '../engine/parts.js';
import type {
  ActionDiagnostic,
  AiAnswer,
  AiRequest,
  ClassifyAnswer,
  KnowledgeReply,
  KnowledgeRequest,
  ConversationState,
  Effect,
  EngineContext,
  ReplyPart,
  TurnInput,
  TurnOutcome,
} from '../engine/types.js';
import { sendHttp, type RequestSecrets } from './outbound-http.js';
import type { Config } from '../config.js';
import type { Metrics } from '../observability/metrics.js';
import type { Clock } from '../shared/clock.js';
import type { TurnMessage } from './webhook-plan.js';
import { STATE_TAKEN_OVER } from './control.js';
import { newConversationRecord, nothingToRecord, recordInbound, writeTurnRecords, type TurnRecords } from './turn-records.js';
import { chattable, transition } from './control-machine.js';
import { driveTurn, type AnswerMemo, type RequestHandlers } from './drive-turn.js';
import { agentHandlers, type AgentRequestDeps } from './agent-requests.js';
import type { ConversationTurns } from './turns.js';
import { applyRequestValues, clampFlowState } from './limits.js';
import { broadcastClick, OPT_OUT_VARIABLE, optOutAnswer } from './broadcast-rules.js';
import { replyOf, TURN_MATCH, type ChatReply } from './reply.js';
import { heldForApproval, heldForOperators, storedPart, waitingNotice } from './waiting.js';
import type { UserMessage } from './user-message.js';
import type { ConversationRecord } from './model.js';
import type { BotRecord } from '../bots/model.js';
import type { AnswerSink, StreamTarget } from './answer-stream.js';
import type { ShareMode, ShareRecord } from './model.js';

export interface TurnRunnerDeps extends AgentRequestDeps {
  clock: Clock;
  turns: ConversationTurns;
  metrics: Metrics;
  config: Pick<Config, 'allowPrivateNetwork'>;
  random?: () => number;
  /** told of actions that threw during a turn (the turn went on without them): logged by main.ts */
  onDiagnostics?: (bot: BotRecord, userId: string, diagnostics: ActionDiagnostic[]) => void;
  /** the designer's preview: each reply keeps what took the user text (reply.ts TURN_MATCH); never for real conversations */
  explainTurns?: boolean;
  /** deletes a conversation marked as forgetting (after the turn that asked for it committed) */
  forget: (conversation: ConversationRecord) => void;
  /** makes the links of `shareUrl` actions (operators/share-service.ts) */
  shares: { newShare(conversationId: number, mode: ShareMode, hours: number): ShareRecord; url(code: string): string };
  /** the loaded intent model of a live version (bots/live-models.ts); null when it has no intents */
  classifierOf?: (compiled: CompiledBot, bot: BotRecord) => { classify(text: string): Promise<ClassifyAnswer> } | null;
  /** answers `ai` requests (ai-step.ts); absent: every AI step is NOT_CONFIGURED */
  ai?: (bot: BotRecord, conversationId: number | null, request: AiRequest, stream?: AnswerSink) => Promise<AiAnswer>;
  /** publishes a model's answer while it streams (answer-stream.ts); absent: nothing streams */
  answerStream?: (target: StreamTarget) => AnswerSink;
  /** answers `knowledge` requests (knowledge/answers.ts); absent: every question is NO_ANSWER */
  knowledge?: (bot: BotRecord, request: KnowledgeRequest) => Promise<KnowledgeReply>;
  /** fills `{{secret.NAME}}` slots of outbound requests (secrets/substitution.ts); absent: sent empty */
  secrets?: RequestSecrets;
}

export type { UserMessage } from './user-message.js';

const USER_TEXT_TYPE = PartType.UserText;

export class UserTurn {
  constructor(private readonly deps: TurnRunnerDeps) {}

  async run(bot: BotRecord, compiled: CompiledBot, userId: string, input: UserMessage): Promise<ChatReply> {
    const started = process.hrtime.bigint();
    const memo: AnswerMemo = new Map();
    // Links made by `shareUrl` actions; their rows are written with the turn (answers are memoized,
    // so a retried turn hands out the same links).
    const newShares = new Map<string, { mode: ShareMode; hours: number }>();
    let endedBy = 'none';
    let channel = input.newChannel ?? 'custom';
    const reply = await this.deps.turns.run(bot, userId, async (current) => {
      const conversation = current ? chattable(current, this.deps.clock) : newConversationRecord(this.deps.clock, bot, compiled, userId, input.newChannel ?? 'custom');
      channel = conversation.channel;
      const state = copyState(conversation.state);
      applyRequestValues(state, input.variables, input.tags, input.dropTags);
      const next: ConversationRecord = { ...conversation, state };
      const messages: TurnMessage[] = [];
      const userPart = this.userPart(compiled, state, input);
      if (userPart) messages.push({ direction: 'USER', parts: [userPart], pushed: false });

      if (next.controlState === STATE_TAKEN_OVER || heldForOperators(compiled, next, input) || heldForApproval(next, input)) {
        // Rule 7 (an operator has the conversation) and rule 6b (it waits for one): the text is kept
        // and forwarded to the operators (console, webhook); the bot is silent, but for its waiting
        // text once per hand-over request.
        if (userPart) messages[0].toOperators = true;
        const notice = next.controlState === STATE_TAKEN_OVER || heldForApproval(next, input) ? null : waitingNotice(compiled, next);
        const parts = notice ? [notice] : [];
        if (notice) messages.push({ direction: 'BOT', parts, pushed: false, enableUserChat: true });
        const answer = this.reply(next, parts, true);
        for (const m of messages) m.creation = answer.Creation;
        return {
          save: next,
          messages,
          usage: { messages: userPart ? 1 : 0, replies: notice ? 1 : 0, notifications: 0, apiCalls: 0 },
          alsoWrite: (tx, conversationId) => recordInbound(this.deps.clock, tx, conversationId, input),
          reply: answer,
        };
      }

      // A stop (or start) keyword answers for itself: the flow does not run (broadcasts.md "Opt-out").
      const optedOut = conversation.state.variables[OPT_OUT_VARIABLE] === 'true';
      const confirmation = input.command ? null : optOutAnswer(bot, compiled, next.state, input.text, optedOut);
      if (confirmation) {
        messages.push({ direction: 'BOT', parts: confirmation, pushed: false, enableUserChat: true });
        const answer = this.reply(next, confirmation, true);
        for (const m of messages) m.creation = answer.Creation;
        return {
          save: next,
          messages,
          usage: { messages: userPart ? 1 : 0, replies: 1, notifications: 0, apiCalls: 0 },
          alsoWrite: input.inbound ? (tx, conversationId) => recordInbound(this.deps.clock, tx, conversationId, input) : undefined,
          reply: answer,
        };
      }
      const click = current ? broadcastClick(compiled, next.state, input.command) : null;

      const outcomes: TurnOutcome[] = [];
      const handlers = this.handlers(bot, compiled, current?.id ?? null, newShares, { userId, channel, question: userPart?.Text ?? undefined });
      for (const turnInput of this.engineInputs(compiled, input, current === null)) {
        const before = outcomes.at(-1)?.state ?? next.state;
        outcomes.push(await driveTurn(compiled, before, turnInput, this.engineContext(), handlers, memo));
      }
      const last = outcomes.at(-1)!;
      const diagnostics = outcomes.flatMap((o) => o.diagnostics);
      if (diagnostics.length > 0) this.deps.onDiagnostics?.(bot, userId, diagnostics);
      next.state = last.state;
      // What the flow wrote is bounded too (docs/limits.md): a visitor cannot grow it turn by turn.
      clampFlowState(next.state);
      const parts = outcomes.flatMap((o) => o.parts);
      const effects = outcomes.flatMap((o) => o.effects);
      const missed = effects.flatMap((e) => (e.kind === 'missed' ? [e] : []));
      const asked = effects.flatMap((e) => (e.kind === 'knowledgeAsked' ? [e.answered] : []));
      const notes = effects.flatMap((e) => (e.kind === 'note' ? [e.text] : []));
      const traces = effects.flatMap((e) => (e.kind === 'agentTrace' ? [e.steps] : []));
      const approvals = effects.flatMap((e) => (e.kind === 'approvalAsked' ? [e] : []));
      Object.assign(next, this.applyControl(next, effects));
      if (parts.length > 0) messages.push({ direction: 'BOT', parts, pushed: false, enableUserChat: last.enableUserChat });
      endedBy = last.endedBy;
      const records: TurnRecords = { newShares, click, asked, agent: { notes, traces, approvals } };
      const answer = this.reply(next, parts, last.enableUserChat);
      const matched = [...outcomes].reverse().find((o) => o.matched !== null)?.matched;
      if (this.deps.explainTurns && matched) Object.assign(answer, { [TURN_MATCH]: matched });
      // the turn's messages go out (webhooks) with the time of the reply they were answered in
      for (const m of messages) m.creation = answer.Creation;
      return {
        save: next,
        messages,
        usage: {
          messages: userPart ? 1 : 0,
          replies: parts.length > 0 ? 1 : 0,
          notifications: 0,
          apiCalls: outcomes.reduce((n, o) => n + o.apiCalls, 0),
          aiTokens: outcomes.reduce((n, o) => n + o.aiTokens, 0),
        },
        missedTexts: missed.map((m) => ({ text: m.text, behaviour: m.behaviour, interaction: m.interaction })),
        // The common turn writes nothing more: no callback, so the store keeps its fast path.
        alsoWrite: nothingToRecord(input, records) ? undefined : (tx, conversationId) => writeTurnRecords(this.deps, tx, bot, conversationId, input, records),
        afterCommit: (saved) => this.afterCommit(saved, effects),
        reply: answer,
      };
    });
    this.deps.metrics.turns.inc({ channel, ended: endedBy });
    this.deps.metrics.turnSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    return reply;
  }

  /** Forced position first, then the command or text (api.md section 3, order inside one request). */
  private engineInputs(compiled: CompiledBot, input: UserMessage, isNew: boolean): TurnInput[] {
    // a broadcast message's button starts its behaviour, as a goTo would
    if (input.broadcastButton) return [{ kind: 'goto', behaviour: input.broadcastButton.behaviour }];
    const inputs: TurnInput[] = [];
    const forced = input.forcedBehaviour !== undefined || input.forcedInteraction !== undefined || input.forcedBehaviourKey !== undefined;
    if (forced) {
      const byKey = input.forcedBehaviourKey !== undefined ? compiled.behaviourByApiKey.get(input.forcedBehaviourKey) : undefined;
      // An unknown behaviour key is an unknown behaviour: the engine sends the flow to the start.
      const behaviour = input.forcedBehaviourKey !== undefined ? (byKey ?? `\u0000unknown`) : input.forcedBehaviour;
      inputs.push({ kind: 'goto', behaviour, interaction: input.forcedInteraction });
    }
    const command = input.command;
    const upper = command?.toUpperCase();
    if (command !== undefined && command !== '' && upper !== 'RESET' && upper !== 'READY') {
      inputs.push({ kind: 'command', payload: command });
    } else if (input.text !== undefined && input.text !== '' && upper !== 'RESET') {
      inputs.push(isNew && !forced ? { kind: 'start', text: input.text } : { kind: 'text', text: input.text });
    } else if (!forced || upper === 'RESET' || upper === 'READY') {
      inputs.push({ kind: 'start' });
    }
    return inputs;
  }

  /** What the user said, as stored in the history: a Type 19 part (a click: the button's text). */
  private userPart(compiled: CompiledBot, state: ConversationState, input: UserMessage): ReplyPart | null {
    const upper = input.command?.toUpperCase();
    let text: string | null = null;
    if (input.broadcastButton) {
      text = input.broadcastButton.title;
    } else if (input.command && upper !== 'RESET' && upper !== 'READY') {
      const button = compiled.actionsById.get(input.command)?.action;
      text = typeof button?.text === 'string' ? button.text : null;
    } else if (input.text !== undefined && input.text !== '' && upper !== 'RESET') {
      text = input.text;
    }
    if (text === null) return null;
    return storedPart(USER_TEXT_TYPE, text, state);
  }

  /** The flow's `operator` and `forget` actions, as transitions of the one control-state machine. */
  applyControl(conversation: ConversationRecord, effects: Effect[]): ConversationRecord {
    let c = conversation;
    for (const effect of effects) {
      if (effect.kind === 'forget') c = transition(c, { kind: 'forget' }, this.deps.clock);
      if (effect.kind !== 'control') continue;
      if (effect.mode === 'request') c = transition(c, { kind: 'request' }, this.deps.clock);
      else if (effect.mode === 'takeover') c = transition(c, { kind: 'takeover', operator: effect.operator ?? '*' }, this.deps.clock);
      else c = transition(c, { kind: 'handover' }, this.deps.clock);
    }
    return c;
  }

  afterCommit(saved: ConversationRecord, effects: Effect[]): void {
    if (saved.forgetting) this.deps.forget(saved);
    for (const effect of effects) {
      if (effect.kind !== 'asyncHttp') continue;
      void sendHttp(saved.botId, effect, this.outbound());
    }
  }

  private outbound() {
    return { allowPrivateNetwork: this.deps.config.allowPrivateNetwork, secrets: this.deps.secrets };
  }

  engineContext(): EngineContext {
    return { now: () => Date.now(), random: this.deps.random ?? Math.random };
  }

  /** `live`: the conversation whose listeners see a streamed answer arrive (a user's turn; not a broadcast, not the preview) */
  handlers(
    bot: BotRecord,
    compiled: CompiledBot,
    conversationId: number | null,
    newShares: Map<string, { mode: ShareMode; hours: number }>,
    live?: { userId: string; channel: string; question?: string },
  ): RequestHandlers {
    const streams = live && compiled.source.settings?.ai?.stream === true && !this.deps.explainTurns;
    const stream = () => (streams && this.deps.answerStream ? this.deps.answerStream({ botId: bot.id, ...live }) : undefined);
    return {
      // A model that fails to answer leaves the text not understood; it never fails the turn.
      classify: async (request) =>
        (await this.deps
          .classifierOf?.(compiled, bot)
          ?.classify(request.text)
          .catch(() => null)) ?? { intents: [] },
      ai: async (request) => (this.deps.ai ? this.deps.ai(bot, conversationId, request, request.said ? stream() : undefined) : { status: 'NOT_CONFIGURED', text: '', tokens: 0 }),
      knowledge: async (request) => (this.deps.knowledge ? this.deps.knowledge(bot, request) : { status: 'NO_ANSWER', answer: null, sources: [], calledProvider: false, tokens: 0 }),
      http: (request) => sendHttp(bot.id, request, this.outbound()),
      ...agentHandlers(this.deps, bot, compiled, conversationId, stream),
      shareUrl: async (request) => {
        const mode = (['view', 'takeover', 'auto'].includes(request.mode) ? request.mode : 'view') as ShareMode;
        const hours = Number.isFinite(request.hours) && request.hours > 0 ? request.hours : 24;
        const code = this.deps.shares.newShare(0, mode, hours).code;
        newShares.set(code, { mode, hours });
        return this.deps.shares.url(code);
      },
    };
  }

  private reply(c: ConversationRecord, parts: ReplyPart[], enableUserChat: boolean): ChatReply {
    return replyOf(c, parts, enableUserChat, this.deps.clock);
  }
}
