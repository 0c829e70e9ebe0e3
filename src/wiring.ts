// The wiring of one node: every service built once from the configuration and the store, in the
// order their dependencies need. main.ts starts the HTTP server and the loops around it; the
// command line builds the same services without a server. Each domain's part is a function of its
// own in wiring/ (taking a WiringBase); this file calls them in order and hands the HTTP layer the
// services it routes to. It and wiring/ are the only code outside store/ that sees the whole
// store (test/architecture/boundaries.test.ts): each part hands a service only its port's slice.
import { AgentTraces } from './conversations/agent-traces.js';
import { AgentApprovals } from './conversations/approvals.js';
import { AccountService } from './accounts/service.js';
import { OperatorAdmin } from './operators/admin-operators.js';
import { loadAdminToken } from './auth/admin-token.js';
import { Authenticator } from './auth/authenticate.js';
import { TokenGrants } from './auth/grants.js';
import { newSigningKey, SIGNING_KEY_META, TokenService } from './auth/tokens.js';
import { CloneService } from './bots/clones.js';
import { buildBotSchema } from './bots/schema.js';
import { BotService } from './bots/service.js';
import { ImportService } from './importers/service.js';
import { AnalyticsService } from './analytics/service.js';
import type { Config } from './config.js';
import { Maintenance } from './conversations/maintenance.js';
import { Retention } from './conversations/retention.js';
import { AuditLog } from './audit/service.js';
import { PersonalDataExport } from './conversations/personal-data.js';
import { ConversationRetention } from './conversations/retention-policy.js';
import { actionRegistry } from './engine/registry.js';
import { openEventBus } from './event-bus.js';
import type { Services } from './http/services.js';
import { Metrics } from './observability/metrics.js';
import { indexNewMessages } from './operators/message-index.js';
import { systemClock } from './shared/clock.js';
import type { Store } from './store/index.js';
import type { BuiltinModel } from './understanding/builtin-model/pool.js';
import { trainingCount } from './understanding/model.js';
import { trainOffThread } from './understanding/trainer.js';
import { Deliveries } from './webhooks/deliveries.js';
import type { StartOptions, WiringBase } from './wiring/base.js';
import { agentParts } from './wiring/agents.js';
import { broadcastParts } from './wiring/broadcasts.js';
import { channelParts } from './wiring/channels.js';
import { consoleParts } from './wiring/console.js';
import { conversationParts } from './wiring/conversations.js';
import { deliveryParts } from './wiring/delivery.js';
import { knowledgeParts } from './wiring/knowledge.js';
import { understandingParts } from './wiring/understanding.js';

export type { StartOptions };

export async function createServices(config: Config, store: Store, options: StartOptions = {}) {
  const base: WiringBase = {
    config,
    store,
    options,
    clock: options.clock ?? systemClock,
    logError: (what) => (error) => options.log?.(`${what}: ${(error as Error).message}`),
  };
  const { clock } = base;
  const signingKey = await store.meta.getOrInitSecret(SIGNING_KEY_META, newSigningKey());
  const adminToken = await loadAdminToken(store, config.adminToken);
  const tokens = new TokenService(signingKey, config.tokenMinutes, () => clock.now());
  const events = await openEventBus(config, options.log);
  // Publishing, restoring and cloning train intent models: never on the thread that serves requests.
  trainOffThread(config.training);
  const metrics = new Metrics(() => store.conversationsByState(), trainingCount);
  const delivery = deliveryParts(base, metrics);
  const { dispatcher } = delivery;
  const accounts = new AccountService(store, clock);
  const bots = understandingParts(base, accounts);
  const { live } = bots;
  const knowledge = knowledgeParts(base, { live, understanding: bots.understanding, embeddings: bots.embeddings });
  const agents = agentParts(base);
  const talk = conversationParts(base, { ...delivery, ...bots, events, metrics, knowledgeAnswers: knowledge.knowledgeAnswers, secrets: agents.secretFiller, mcp: agents.mcpTools });
  const { conversations, control, preview } = talk;
  const { scheduler, broadcasts } = broadcastParts(base, { live, conversations, webhookTarget: delivery.webhookTarget });
  const channels = channelParts(base, { ...delivery, conversations, control, events, metrics });
  const audit = new AuditLog(store, clock, base.logError('audit log'));
  const botService = new BotService(store, clock);
  const services: Services = {
    config,
    clock,
    ping: () => store.ping(),
    grants: new TokenGrants(store, tokens),
    clones: new CloneService(store, clock),
    auth: new Authenticator(store, tokens, adminToken.matches),
    tokens,
    accounts,
    operatorAdmin: new OperatorAdmin(store, accounts, clock),
    bots: botService,
    imports: new ImportService(botService),
    understanding: bots.understanding,
    agentTraces: new AgentTraces(store, clock),
    agentApprovals: new AgentApprovals({
      store,
      clock,
      live: (bot) => live.get(bot),
      mcpParameters: async (botId, server, tool) => (await agents.mcpTools.toolsFor(botId, [server])).tools.find((t) => t.server === server && t.tool.name === tool)?.tool.parameters ?? null,
      resume: (bot, approval, decision) => conversations.resumeAgent(bot, approval, decision),
    }),
    knowledge: knowledge.knowledge,
    knowledgeAnswers: knowledge.knowledgeAnswers,
    broadcasts,
    conversations,
    chat: talk.chat,
    web: channels.web,
    channels: { connections: channels.connections, inbound: channels.inbound },
    control,
    shares: talk.shares,
    ...consoleParts(base, { events, control, conversations, shares: talk.shares, audit }),
    analytics: new AnalyticsService({ store, clock, live }),
    preview,
    events,
    audit,
    personalData: new PersonalDataExport(store, clock),
    retention: new ConversationRetention(store, talk.forgetting, clock),
    deliveries: new Deliveries(store, clock, () => dispatcher.wake()),
    metrics,
    botSchema: buildBotSchema(actionRegistry) as Record<string, unknown>,
    rateWindows: store.rateWindows,
    secrets: agents.secrets,
    mcp: { servers: agents.mcpServers, tools: agents.mcpTools },
  };
  const retention = new Retention({ store, clock });
  const maintenance = new Maintenance(talk.forgetting, control, base.logError('maintenance'), [
    () => channels.inbound.pruneSeen(),
    () => retention.run(),
    () => audit.expire(),
    () => services.retention.run(),
    () => preview.prune(),
    () => knowledge.indexingLeases.failAbandoned(),
    () => indexNewMessages(store),
  ]);
  // Conversations whose forgetting was interrupted by a stop are deleted now.
  await maintenance.runOnce();
  const embedder = stopsBoth(bots.embeddings.embedder, bots.builtin);
  const drain = () => Promise.all([talk.turns.drain(), preview.turns.drain()]);
  return {
    services,
    maintenance,
    indexingLeases: knowledge.indexingLeases,
    dispatcher,
    scheduler,
    embedder,
    tokenTally: bots.tokenTally,
    turns: { drain },
    adminTokenGenerated: adminToken.generated,
    mcpTools: agents.mcpTools,
  };
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
