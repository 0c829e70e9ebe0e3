// The store: one set of repositories over whichever database the config names. `transaction`
// hands out the same repositories bound to one transaction.
import path from 'node:path';
import type { SecretBox } from '../auth/secret-box.js';
import { loadServerKey } from '../auth/secret-key.js';
import { accountRepository } from './accounts.js';
import { auditRepository } from './audit.js';
import { personalDataRepository } from './personal-data.js';
import { retentionPolicyRepository } from './retention-policy.js';
import { analyticsRepository } from './analytics.js';
import { botRepository } from './bots.js';
import { conversationRepository, conversationsByState } from './conversations.js';
import type { Queryable, SqlDriver } from './driver.js';
import { metaRepository } from './meta.js';
import { migrate } from './migrations/index.js';
import { operatorRepository } from './operators.js';
import { operatorSessionRepository } from './operator-sessions.js';
import { ssoRepository } from './sso.js';
import { shareRepository } from './shares.js';
import { assignmentRepository, cannedResponseRepository, noteRepository } from './console-workspace.js';
import { outboxRepository } from './outbox.js';
import { activityRepository, inboxRepository, messageSearchRepository, teamRepository } from './console-inbox.js';
import { previewRepository } from './preview.js';
import { presenceRepository } from './presence.js';
import { channelRepository } from './channels.js';
import { broadcastRepository } from './broadcasts.js';
import { knowledgeRepository } from './knowledge.js';
import { knowledgeVectorRepository } from './knowledge-vectors.js';
import { knowledgeFaqRepository } from './knowledge-faq.js';
import { webVisitorRepository } from './web-visitors.js';
import { knowledgeLeaseRepository } from './knowledge-leases.js';
import { aiSettingsRepository, missedTextRepository } from './understanding.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import { rateWindowRepository } from './rate-windows.js';
import { secretRepository } from './secrets.js';
import { mcpServerRepository } from './mcp-servers.js';
import { agentApprovalRepository } from './agent-approvals.js';
import { agentTraceRepository } from './agent-traces.js';
import type { RateWindowTable } from '../http/rate-window-port.js';
import { saveTurnInOneStatement } from './turn-in-one-statement.js';
import { saveTurnInSqlite } from './sqlite-save-turn.js';
import type { TurnSave, TurnSaveOutcome } from '../conversations/port.js';

function repositories(db: Queryable, secrets: SecretBox, onPrincipalWrite: () => void = () => undefined) {
  return {
    accounts: accountRepository(db, onPrincipalWrite),
    audit: auditRepository(db),
    personalData: personalDataRepository(db),
    retentionPolicy: retentionPolicyRepository(db),
    bots: botRepository(db, secrets, onPrincipalWrite),
    conversations: conversationRepository(db),
    meta: metaRepository(db, secrets),
    operators: operatorRepository(db),
    webVisitors: webVisitorRepository(db),
    operatorSessions: operatorSessionRepository(db),
    sso: ssoRepository(db, secrets),
    shares: shareRepository(db),
    outbox: outboxRepository(db),
    channels: channelRepository(db, secrets),
    missedTexts: missedTextRepository(db),
    aiSettings: aiSettingsRepository(db, secrets),
    analytics: analyticsRepository(db),
    assignments: assignmentRepository(db),
    notes: noteRepository(db),
    agentTraces: agentTraceRepository(db),
    agentApprovals: agentApprovalRepository(db),
    cannedResponses: cannedResponseRepository(db),
    activity: activityRepository(db),
    inbox: inboxRepository(db),
    teams: teamRepository(db),
    presence: presenceRepository(db),
    messageSearch: messageSearchRepository(db),
    preview: previewRepository(db, secrets),
    knowledge: knowledgeRepository(db),
    vectors: knowledgeVectorRepository(db),
    faqPairs: knowledgeFaqRepository(db),
    broadcasts: broadcastRepository(db),
    knowledgeLeases: knowledgeLeaseRepository(db),
    secrets: secretRepository(db, secrets),
    mcpServers: mcpServerRepository(db, secrets),
  };
}

export type Repositories = ReturnType<typeof repositories>;

export interface Store extends Repositories {
  readonly dialect: SqlDriver['dialect'];
  /** a turn's usual writes: one statement on PostgreSQL (turn-in-one-statement.ts), a lean group member on SQLite (sqlite-save-turn.ts) */
  saveTurn: (turn: TurnSave) => Promise<TurnSaveOutcome>;
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Moves on whenever this node wrote a bot or an account row (and again when the transaction that
   * wrote it ended): a principal cached under an older value may be out of date.
   */
  principalGeneration(): number;
  /** where nodes add up their rate-limit counts: PostgreSQL only (SQLite is one node and counts in memory) */
  readonly rateWindows: RateWindowTable | null;
  /** Applies pending migrations, then checks that this store's server key is the database's (SecretKeyMismatch if not). */
  migrate(log?: (line: string) => void): Promise<number>;
  ping(): Promise<void>;
  conversationsByState(): Promise<Record<string, number>>;
  /**
   * Indexes for the console's search up to `batch` messages stored since the last call, in one
   * transaction of its own, and says how many (SQLite, migration 022; PostgreSQL's index is kept
   * as rows are written: 0 without a statement).
   */
  indexNewMessages(batch: number): Promise<number>;
  /** SqlDriver.eraseDeleted: the deleted rows gone from the files too (SQLite), after a forget */
  eraseDeleted(): Promise<void>;
  close(): Promise<void>;
}

export function storeOver(driver: SqlDriver, secrets: SecretBox): Store {
  let principalGeneration = 0;
  const principalWritten = () => void principalGeneration++;
  const repos = repositories(driver, secrets, principalWritten);
  return {
    ...repos,
    dialect: driver.dialect,
    saveTurn: (turn: TurnSave) => (driver.dialect === 'postgres' ? saveTurnInOneStatement(driver, turn) : saveTurnInSqlite(driver, turn)),
    transaction: async (work) => {
      // A principal read while the transaction was open saw the rows before it: once more at the end.
      let wrote = false;
      try {
        return await driver.transaction((tx) => work(repositories(tx, secrets, () => ((wrote = true), principalWritten()))));
      } finally {
        if (wrote) principalWritten();
      }
    },
    principalGeneration: () => principalGeneration,
    rateWindows: driver.dialect === 'postgres' ? rateWindowRepository(driver) : null,
    migrate: async (log) => {
      const applied = await migrate(driver, { secrets }, log);
      await repos.meta.ensureKeyCheck();
      return applied;
    },
    ping: async () => void (await driver.get('SELECT 1 AS one')),
    conversationsByState: () => conversationsByState(driver),
    indexNewMessages: async (batch) => (driver.dialect === 'sqlite' ? driver.transaction((tx) => messageSearchRepository(tx).catchUp(batch)) : 0),
    eraseDeleted: () => driver.eraseDeleted(),
    close: () => driver.close(),
  };
}

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** the server key; when absent it is loaded from `secretKey` (COLLOQUY_SECRET_KEY) or the data dir's key file */
  secrets?: SecretBox;
  secretKey?: string | null;
  /** what the operator should hear of (SQLite: a WAL that cannot be truncated after a forget) */
  log?: (line: string) => void;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const secrets = options.secrets ?? loadServerKey(options).box;
  const driver = options.databaseUrl ? await openPostgres(options.databaseUrl) : openSqlite(path.join(options.dataDir, 'colloquy.sqlite'), { log: options.log });
  return storeOver(driver, secrets);
}
