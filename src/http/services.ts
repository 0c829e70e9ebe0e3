// What the HTTP layer is given by main.ts. Plain objects, wired by hand (no DI container).
import type { AgentApprovals } from '../conversations/approvals.js';
import type { AgentTraces } from '../conversations/agent-traces.js';
import type { AccountService } from '../accounts/service.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { TokenService } from '../auth/tokens.js';
import type { TokenGrants } from '../auth/grants.js';
import type { CloneService } from '../bots/clones.js';
import type { BotService } from '../bots/service.js';
import type { UnderstandingService } from '../bots/understanding-service.js';
import type { ChatService } from '../channels/custom/chat-service.js';
import type { Preview } from '../designer/preview.js';
import type { ConversationService } from '../conversations/service.js';
import type { WebChannel } from '../channels/web/web-channel.js';
import type { ChannelConnections } from '../channels/messaging/connections.js';
import type { ChannelInbound } from '../channels/messaging/inbound.js';
import type { Config } from '../config.js';
import type { ControlService } from '../conversations/control-service.js';
import type { EventBus } from '../conversations/events.js';
import type { ShareService } from '../operators/share-service.js';
import type { ConsoleService } from '../operators/console-service.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { ConsoleBots } from '../operators/console-bots.js';
import type { ConsoleWorkspace } from '../operators/console-workspace.js';
import type { ConsoleInbox } from '../operators/console-inbox.js';
import type { Team } from '../operators/team.js';
import type { WebVisitorPanel } from '../operators/web-visitors.js';
import type { OperatorSessions } from '../operators/sessions.js';
import type { OperatorAdmin } from '../operators/admin-operators.js';
import type { SsoSettings } from '../operators/sso-settings.js';
import type { SsoSignIn } from '../operators/sso-sign-in.js';
import type { ShareAccess } from '../operators/share-access.js';
import type { Deliveries } from '../webhooks/deliveries.js';
import type { Metrics } from '../observability/metrics.js';
import type { Clock } from '../shared/clock.js';
import type { RateWindowTable } from './rate-window-port.js';
import type { KnowledgeService } from '../knowledge/service.js';
import type { KnowledgeAnswers } from '../knowledge/answers.js';
import type { BroadcastService } from '../broadcasts/service.js';
import type { AuditLog } from '../audit/service.js';
import type { PersonalDataExport } from '../conversations/personal-data.js';
import type { ConversationRetention } from '../conversations/retention-policy.js';
import type { BotSecrets } from '../secrets/service.js';
import type { McpServers } from '../mcp/servers.js';
import type { McpTools } from '../mcp/tool-source.js';
import type { ImportService } from '../importers/service.js';

export interface Services {
  config: Config;
  clock: Clock;
  /** resolves when the database answers (GET /health) */
  ping: () => Promise<void>;
  grants: TokenGrants;
  clones: CloneService;
  auth: Authenticator;
  tokens: TokenService;
  accounts: AccountService;
  /** the operators an account's admin adds and their roles */
  operatorAdmin: OperatorAdmin;
  bots: BotService;
  /** bots made of Typebot, Rasa and Dialogflow ES exports (importers.md) */
  imports: ImportService;
  understanding: UnderstandingService;
  /** agents.md "Trace" */
  agentTraces: AgentTraces;
  /** agents.md "Tools": approvals of agents' tool calls */
  agentApprovals: AgentApprovals;
  /** knowledge sources and search (knowledge.md) */
  knowledge: KnowledgeService;
  knowledgeAnswers: KnowledgeAnswers;
  /** broadcasts.md: the bot speaks first, to an audience */
  broadcasts: BroadcastService;
  conversations: ConversationService;
  chat: ChatService;
  /** the designer's preview chat on drafts (designer/preview.ts) */
  preview: Preview;
  web: WebChannel;
  /** Telegram, WhatsApp, Messenger (channels.md) */
  channels: { connections: ChannelConnections; inbound: ChannelInbound };
  control: ControlService;
  shares: ShareService;
  operatorSessions: OperatorSessions;
  /** an account's OpenID Connect provider for the console (governance.md "Single sign-on") */
  ssoSettings: SsoSettings;
  ssoSignIn: SsoSignIn;
  console: ConsoleService;
  /** which bots an operator may open in the console (every console page's bot) */
  consoleBots: ConsoleBots;
  /** per-bot analytics and the flow picture (docs/analytics.md) */
  analytics: AnalyticsService;
  /** assignment, notes, canned responses, operator typing */
  workspace: ConsoleWorkspace;
  /** search, resolve / reopen / snooze, transfer, teams */
  inbox: ConsoleInbox;
  team: Team;
  webVisitors: WebVisitorPanel;
  shareAccess: ShareAccess;
  events: EventBus;
  /** governance.md: the one recorder of who changed what (http/audit.ts), and its reader */
  audit: AuditLog;
  /** governance.md: everything held about one conversation, as one JSON document */
  personalData: PersonalDataExport;
  /** governance.md "Retention": bots' policies, carried out by maintenance */
  retention: ConversationRetention;
  deliveries: Deliveries;
  metrics: Metrics;
  botSchema: Record<string, unknown>;
  /** where nodes on one PostgreSQL add up their rate-limit counts; null on SQLite (one node) */
  rateWindows: RateWindowTable | null;
  /** a bot's secrets for its outbound requests (agents.md "Secrets") */
  secrets: BotSecrets;
  /** a bot's MCP servers: the API's side and the agent turn's (agents.md "MCP servers") */
  mcp: { servers: McpServers; tools: McpTools };
}
