// The conversation use-case and what drives it: the turn pipeline, forgetting, share links,
// control, the service of intents, the designer's preview (the same service on drafts) and the
// custom channel.
import type { LiveBots } from '../bots/live.js';
import type { BotRecord } from '../bots/model.js';
import { ChatService } from '../channels/custom/chat-service.js';
import type { ChannelOutbound } from '../channels/messaging/outbound.js';
import type { AiSteps } from '../conversations/ai-step.js';
import { AnswerStream, type AnswerSink, type StreamTarget } from '../conversations/answer-stream.js';
import { ControlService } from '../conversations/control-service.js';
import { Forgetting } from '../conversations/forgetting.js';
import type { ConversationRecord } from '../conversations/model.js';
import type { RequestSecrets } from '../conversations/outbound-http.js';
import { ConversationService } from '../conversations/service.js';
import { ConversationTurns } from '../conversations/turns.js';
import { Preview } from '../designer/preview.js';
import type { ActionDiagnostic, AgentModelRequest, AiRequest, KnowledgeRequest } from '../engine/types.js';
import type { McpToolSource } from '../agents/tool-sources.js';
import type { EventBus } from '../conversations/events.js';
import type { KnowledgeAnswers } from '../knowledge/answers.js';
import type { Metrics } from '../observability/metrics.js';
import { ShareService } from '../operators/share-service.js';
import type { Dispatcher } from '../webhooks/dispatcher.js';
import type { WiringBase } from './base.js';
import type { understandingParts } from './understanding.js';

export interface ConversationDeps {
  events: EventBus;
  metrics: Metrics;
  dispatcher: Dispatcher;
  channelOutbound: ChannelOutbound;
  live: LiveBots;
  aiSteps: AiSteps;
  knowledgeAnswers: KnowledgeAnswers;
  classifierFor: ReturnType<typeof understandingParts>['classifierFor'];
  /** fills `{{secret.NAME}}` slots of outbound requests (wiring/agents.ts) */
  secrets: RequestSecrets;
  /** the bot's MCP servers for agents' `mcp` tools (wiring/agents.ts) */
  mcp: McpToolSource;
}

export function conversationParts({ config, store, clock, options }: WiringBase, deps: ConversationDeps) {
  const { events, metrics, dispatcher, channelOutbound, live, aiSteps, knowledgeAnswers } = deps;
  const turns = new ConversationTurns(
    store,
    clock,
    events,
    () => dispatcher.wake(),
    (bot, conversation, messages, now) => channelOutbound.plan(bot, conversation, messages, now),
    config.cachedConversations,
  );
  const forgetting = new Forgetting(store, events, clock);
  const forget = (c: ConversationRecord) => forgetting.forget(c);
  const shares = new ShareService(store, clock, config);
  const control = new ControlService(store, turns, clock, forget);
  // An action that throws is skipped and the turn goes on; the designer learns of it from the log.
  const onDiagnostics = (bot: { apiKey: string }, _userId: string, diagnostics: ActionDiagnostic[]) => {
    for (const d of diagnostics) options.log?.(`bot ${bot.apiKey}: action ${d.action ?? '(turn)'} at ${d.at.behaviour}/${d.at.interaction}#${d.at.index ?? '-'} failed: ${d.error}`);
  };
  const turnDeps = {
    clock,
    metrics,
    config,
    random: options.random,
    forget,
    shares,
    onDiagnostics,
    classifierOf: deps.classifierFor,
    ai: (bot: BotRecord, conversationId: number | null, request: AiRequest, stream?: AnswerSink) => aiSteps.answer(bot, conversationId, request, stream),
    answerStream: (target: StreamTarget) => new AnswerStream(events, clock, target),
    knowledge: (bot: BotRecord, request: KnowledgeRequest) => knowledgeAnswers.reply(bot, request),
    secrets: deps.secrets,
    agentModel: (bot: BotRecord, conversationId: number | null, request: AgentModelRequest, budget: number | null, stream?: AnswerSink) =>
      aiSteps.agentAnswer(bot, conversationId, request, budget, stream),
    // the bot's MCP servers (agents/tool-sources.ts)
    mcp: deps.mcp,
  };
  const conversations = new ConversationService({ ...turnDeps, store, live, turns });
  // The designer's preview: the same service on drafts, apart from real conversations.
  const preview = new Preview({ ...turnDeps, store });
  return { turns, forgetting, shares, control, conversations, preview, chat: new ChatService(conversations) };
}
