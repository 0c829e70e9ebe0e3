// The wiring of one node: every service built once from the configuration and the store, in the
// order their dependencies need. main.ts starts the HTTP server and the loops around it; the
// command line builds the same services without a server.
// Composition root: config → store → services → HTTP. Everything is wired here by hand.
import { AccountService } from './accounts/service.js';
import { loadAdminToken } from './auth/admin-token.js';
import { Authenticator } from './auth/authenticate.js';
import { TokenGrants } from './auth/grants.js';
import { CloneService } from './bots/clones.js';
import { newSigningKey, SIGNING_KEY_META, TokenService } from './auth/tokens.js';
import { LiveBots } from './bots/live.js';
import { classifierOf, versionIdOf } from './bots/live-models.js';
import { IntentEmbeddings } from './understanding/intent-embeddings.js';
import type { CompiledBot } from './engine/compiled.js';
import { UnderstandingService } from './bots/understanding-service.js';
import { AiSteps } from './conversations/ai-step.js';
import { chatCompletion } from './integrations/ai-client.js';
import { KnowledgeService } from './knowledge/service.js';
import { KnowledgeAnswers } from './knowledge/answers.js';
import { DEFAULT_INDEXER_LIMITS, Indexer } from './knowledge/indexer.js';
import { knowledgeEmbeddings } from './knowledge/embeddings.js';
import { TokenTally } from './accounts/token-tally.js';
import { BuiltinModel, DEFAULT_BUILTIN_MODEL_LIMITS } from './understanding/builtin-model/pool.js';
import { embedWith } from './understanding/builtin-model/provider.js';
import { IndexingLeases } from './knowledge/indexing-lease.js';
import { minScoreOf } from './engine/actions/knowledge/min-score.js';
import type { BotRecord } from './bots/model.js';
import { trainingCount } from './understanding/model.js';
import { trainOffThread } from './understanding/trainer.js';
import { buildBotSchema } from './bots/schema.js';
import { BotService } from './bots/service.js';
import { ChatService } from './channels/custom/chat-service.js';
import { ConversationService } from './conversations/service.js';
import type { ActionDiagnostic, AiRequest, KnowledgeRequest } from './engine/types.js';
import { Preview } from './designer/preview.js';
import { Forgetting } from './conversations/forgetting.js';
import { WebChannel } from './channels/web/web-channel.js';
import { DEFAULT_MIN_SIMILARITY, type Config } from './config.js';
import { ConversationTurns } from './conversations/turns.js';
import { openEventBus } from './event-bus.js';
import crypto from 'node:crypto';
import { ControlService } from './conversations/control-service.js';
import { Maintenance } from './conversations/maintenance.js';
import { indexNewMessages } from './operators/message-index.js';
import { Retention } from './conversations/retention.js';
import { ShareService } from './operators/share-service.js';
import { ConsoleService } from './operators/console-service.js';
import { AnalyticsService } from './analytics/service.js';
import { ConsoleWorkspace } from './operators/console-workspace.js';
import { ConsoleInbox } from './operators/console-inbox.js';
import { Team } from './operators/team.js';
import { InvitationMail } from './operators/invitation-mail.js';
import { smtpMailer } from './shared/mail.js';
import { WebVisitorPanel } from './operators/web-visitors.js';
import { OperatorSessions } from './operators/sessions.js';
import { ShareAccess } from './operators/share-access.js';
import { Dispatcher } from './webhooks/dispatcher.js';
import { WebhookTarget } from './webhooks/webhook-target.js';
import { messagingPlatforms } from './channels/platforms.js';
import { ChannelOutbound } from './channels/messaging/outbound.js';
import { ChannelConnections } from './channels/messaging/connections.js';
import { ChannelInbound } from './channels/messaging/inbound.js';
import { Deliveries } from './webhooks/deliveries.js';
import { actionRegistry } from './engine/registry.js';
import type { Services } from './http/services.js';
import { Metrics } from './observability/metrics.js';
import { systemClock, type Clock } from './shared/clock.js';
import { BroadcastScheduler } from './broadcasts/scheduler.js';
import { BroadcastService } from './broadcasts/service.js';
import type { Store } from './store/index.js';
import type { ConversationRecord } from './conversations/model.js';


export interface StartOptions {
  clock?: Clock;
  /** pino options, or false for silence (tests) */
  logger?: boolean | object;
  log?: (line: string) => void;
  random?: () => number;
  /** conversations read per audience query of a broadcast (tests make it small to cross page boundaries) */
  audiencePage?: number;
}

export async function createServices(config: Config, store: Store, options: StartOptions = {}) {
  const clock = options.clock ?? systemClock;
  const signingKey = await store.meta.getOrInitSecret(SIGNING_KEY_META, newSigningKey());
  const adminToken = await loadAdminToken(store, config.adminToken);
  const tokens = new TokenService(signingKey, config.tokenMinutes, () => clock.now());
  const events = await openEventBus(config, options.log);
  // Publishing, restoring and cloning train intent models: never on the thread that serves requests.
  trainOffThread(config.training);
  const metrics = new Metrics(() => store.conversationsByState(), trainingCount);
  const platforms = messagingPlatforms(config);
  const channelOutbound = new ChannelOutbound({ store, platforms, metrics });
  const dispatcher = new Dispatcher(
    store,
    clock,
    metrics,
    { claimMs: config.jobClaimSeconds * 1000, onError: (error) => options.log?.(`delivery: ${(error as Error).message}`) },
    { webhook: new WebhookTarget(store, clock, { allowPrivateNetwork: config.allowPrivateNetwork }), channel: channelOutbound },
  );
  const turns = new ConversationTurns(store, clock, events, () => dispatcher.wake(), (bot, conversation, messages, now) => channelOutbound.plan(bot, conversation, messages, now), config.cachedConversations);
  const forgetting = new Forgetting(store, events, clock);
  const forget = (c: ConversationRecord) => forgetting.forget(c);
  const shares = new ShareService(store, clock, config);
  const control = new ControlService(store, turns, clock, forget);
  // An action that throws is skipped and the turn goes on; the designer learns of it from the log.
  const onDiagnostics = (bot: { apiKey: string }, _userId: string, diagnostics: ActionDiagnostic[]) => {
    for (const d of diagnostics) options.log?.(`bot ${bot.apiKey}: action ${d.action ?? '(turn)'} at ${d.at.behaviour}/${d.at.interaction}#${d.at.index ?? '-'} failed: ${d.error}`);
  };
  const live = new LiveBots(store);
  const accounts = new AccountService(store, clock);
  // embedding tokens (indexing, questions) are the account's usage like any provider tokens
  const tokenTally = new TokenTally(accounts, (error) => options.log?.(`usage: ${(error as Error).message}`));
  const countTokens = async (botId: string, tokens: number) => {
    const bot = await store.bots.byId(botId);
    if (bot !== null) tokenTally.add(bot.accountId, tokens);
  };
  // the built-in model's threads start on its first text (start-up and /health never wait for it)
  const builtin = config.builtinModel?.enabled ? new BuiltinModel({ ...DEFAULT_BUILTIN_MODEL_LIMITS, threads: config.builtinModel.threads, testHooks: config.builtinModel.testHooks }) : null;
  const embed = embedWith(builtin);
  const embeddings = knowledgeEmbeddings({
    store, clock, embed, countTokens, allowPrivateNetwork: config.allowPrivateNetwork,
    provider: (botId) => understanding.embeddingProviderFor(botId),
    minSimilarity: config.embeddingMinSimilarity ?? DEFAULT_MIN_SIMILARITY,
    onError: (error) => options.log?.(`embeddings: ${(error as Error).message}`),
  });
  const understanding = new UnderstandingService(store, clock, config, live, (botId) => {
    embeddings.queue(botId);
    intentEmbeddings.forgetProvider(botId);
  });
  const intentEmbeddings = new IntentEmbeddings({
    store, clock, embed, countTokens, allowPrivateNetwork: config.allowPrivateNetwork,
    provider: (botId) => understanding.embeddingProviderFor(botId),
    minSimilarity: config.embeddingMinSimilarity ?? DEFAULT_MIN_SIMILARITY,
    onError: (error) => options.log?.(`intent embeddings: ${(error as Error).message}`),
  });
  // the live version's nlp.js model, with the embedding model as second opinion when the bot has one
  const classifierFor = (compiled: CompiledBot, bot: BotRecord) => intentEmbeddings.classifierFor(bot, versionIdOf(compiled), compiled.nlp, classifierOf(compiled));
  const aiSteps = new AiSteps({
    provider: (bot) => understanding.providerFor(bot),
    messages: (conversationId, limit) => store.conversations.storedMessages(conversationId, limit),
    complete: chatCompletion,
    allowPrivateNetwork: config.allowPrivateNetwork,
  });
  // Passages are stemmed in the bot's live language; a bot with no live version yet in English.
  const languageOf = async (bot: BotRecord) => (await live.get(bot).catch(() => null))?.nlp?.language ?? 'en';
  const knowledgeError = (error: unknown) => options.log?.(`knowledge: ${(error as Error).message}`);
  const indexingLeases = new IndexingLeases({ store, clock, onError: knowledgeError });
  const knowledge = new KnowledgeService({ store, clock, indexer: new Indexer({ ...DEFAULT_INDEXER_LIMITS, queue: config.indexingQueue ?? DEFAULT_INDEXER_LIMITS.queue }), languageOf, embeddings, allowPrivateNetwork: config.allowPrivateNetwork, onError: knowledgeError, leases: indexingLeases });
  const knowledgeAnswers = new KnowledgeAnswers({
    find: (bot, question, limit) => knowledge.find(bot, question, limit),
    languageOf,
    minScoreOf: async (bot) => minScoreOf((await live.get(bot).catch(() => null))?.knowledge?.minScore),
    provider: (bot) => understanding.providerFor(bot),
    complete: chatCompletion,
    allowPrivateNetwork: config.allowPrivateNetwork,
  });
  const turnDeps = {
    clock, metrics, config, random: options.random, forget, shares, onDiagnostics,
    classifierOf: classifierFor, ai: (bot: BotRecord, conversationId: number | null, request: AiRequest) => aiSteps.answer(bot, conversationId, request),
    knowledge: (bot: BotRecord, request: KnowledgeRequest) => knowledgeAnswers.reply(bot, request),
  };
  const conversations = new ConversationService({ ...turnDeps, store, live, turns });
  // The designer's preview: the same service on drafts, apart from real conversations.
  const preview = new Preview({ ...turnDeps, store });
  const chat = new ChatService(conversations);
  // Broadcasts run on every node (leases in the database): no scheduler service (broadcasts.md).
  const webhookTarget = new WebhookTarget(store, clock, { allowPrivateNetwork: config.allowPrivateNetwork });
  const scheduler = new BroadcastScheduler(store, clock, conversations, webhookTarget, {
    node: crypto.randomUUID(),
    claimMs: config.jobClaimSeconds * 1000,
    audiencePage: options.audiencePage,
    onError: (error) => options.log?.(`broadcasts: ${(error as Error).message}`),
  });
  const broadcasts = new BroadcastService({
    store,
    clock,
    behavioursOf: async (bot) => (await live.get(bot).catch(() => null))?.behaviours ? new Set((await live.get(bot)).behaviours.keys()) : null,
    audiencePage: options.audiencePage,
    wake: () => scheduler.wake(),
  });
  const connections = new ChannelConnections({ store, platforms, clock, publicUrl: () => config.publicUrl });
  const onChannelError = (error: unknown) => options.log?.(`channel update failed: ${(error as Error).message}`);
  const inbound = new ChannelInbound({ store, connections, conversations, metrics, clock, wakeDispatcher: () => dispatcher.wake(), onError: onChannelError });
  const consoleService = new ConsoleService({ store, control, conversations, events, clock });
  const services: Services = {
    config,
    clock,
    ping: () => store.ping(),
    grants: new TokenGrants(store, tokens),
    clones: new CloneService(store, clock),
    auth: new Authenticator(store, tokens, adminToken.matches),
    tokens,
    accounts,
    bots: new BotService(store, clock),
    understanding,
    knowledge,
    knowledgeAnswers,
    broadcasts,
    conversations,
    chat,
    web: new WebChannel({ store, conversations, events, config, clock }),
    channels: { connections, inbound },
    control,
    shares,
    operatorSessions: new OperatorSessions(store, clock),
    console: consoleService,
    analytics: new AnalyticsService({ store, clock, live }),
    preview,
    workspace: new ConsoleWorkspace({ store, console: consoleService, control, events, clock }),
    inbox: new ConsoleInbox({ store, console: consoleService, control, clock }),
    team: new Team({ store, clock, mail: invitationMail(config, options), linkOf: (token) => `${config.publicUrl.replace(/\/+$/, '')}/console/team#invite=${token}` }),
    webVisitors: new WebVisitorPanel({ store, console: consoleService, clock }),
    shareAccess: new ShareAccess({ store, shares, control, conversations, events, clock }),
    events,
    deliveries: new Deliveries(store, clock, () => dispatcher.wake()),
    metrics,
    botSchema: buildBotSchema(actionRegistry) as Record<string, unknown>,
    rateWindows: store.rateWindows,
  };
  const retention = new Retention({ store, clock });
  const maintenance = new Maintenance(forgetting, control, (error) => options.log?.(`maintenance: ${(error as Error).message}`), [
    () => inbound.pruneSeen(),
    () => retention.run(),
    () => preview.prune(),
    () => indexingLeases.failAbandoned(),
    () => indexNewMessages(store),
  ]);
  // Conversations whose forgetting was interrupted by a stop are deleted now.
  await maintenance.runOnce();
  return { services, maintenance, indexingLeases, dispatcher, scheduler, embedder: stopsBoth(embeddings.embedder, builtin), tokenTally, turns: { drain: () => Promise.all([turns.drain(), preview.turns.drain()]) }, adminTokenGenerated: adminToken.generated };
}


/** Shutdown of the passages' embedder, then of the built-in model's threads it may be using. */
function stopsBoth(embedder: { stop(): Promise<void> }, builtin: BuiltinModel | null): { stop(): Promise<void> } {
  return {
    stop: async () => {
      await embedder.stop();
      builtin?.stop();
    },
  };
}

/** Invitation links by e-mail when COLLOQUY_SMTP_URL is set; read at each send (config.ts `mail`). */
function invitationMail(config: Config, options: StartOptions): InvitationMail {
  return new InvitationMail({ mailer: smtpMailer(() => config.mail), settings: () => config.mail, log: (line) => options.log?.(line) });
}
