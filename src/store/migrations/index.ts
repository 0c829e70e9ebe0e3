// Ordered schema migrations, each written once per dialect. They run on start under the
// migration lock, so several PostgreSQL nodes starting at once apply each exactly once.
import type { SqlDriver } from '../driver.js';
import type { Migration, MigrationContext } from './migration.js';

export type { Migration, MigrationContext } from './migration.js';
import { initial } from './001-initial.js';
import { shares } from './002-shares.js';
import { clones } from './003-clones.js';
import { webhooks } from './004-webhooks.js';
import { pendingIndex } from './005-pending-index.js';
import { secretsAtRest } from './006-secrets-at-rest.js';
import { channels } from './007-channels.js';
import { understanding } from './008-understanding.js';
import { historySize } from './009-history-size.js';
import { analytics } from './010-analytics.js';
import { consoleWorkspace } from './011-console-workspace.js';
import { boundedRows } from './012-bounded-rows.js';
import { rateWindows } from './013-rate-windows.js';
import { designer } from './014-designer.js';
import { knowledge } from './015-knowledge.js';
import { embeddings } from './016-embeddings.js';
import { knowledgeQuestions } from './017-knowledge-analytics-leases.js';
import { broadcasts } from './018-broadcasts.js';
import { consoleInbox } from './019-console-inbox.js';
import { webVisitors } from './020-web-visitors.js';
import { analyticsEvents } from './021-analytics-events.js';
import { messageSearchBatches } from './022-message-search-batches.js';
import { operatorPresence } from './023-operator-presence.js';
import { operatorInvites } from './024-operator-invites.js';
import { draftProblems } from './025-draft-problems.js';
import { faqPairs } from './026-faq-pairs.js';
import { consoleSso } from './027-console-sso.js';
import { auditLog } from './028-audit-log.js';
import { agentSecretsMcp } from './029-agent-secrets-mcp.js';
import { agentTraces } from './030-agent-traces.js';
import { channelReplyAddress } from './031-channel-reply-address.js';
import { agentApprovals } from './032-agent-approvals.js';

export const migrations: Migration[] = [
  initial,
  shares,
  clones,
  webhooks,
  pendingIndex,
  secretsAtRest,
  channels,
  understanding,
  historySize,
  analytics,
  consoleWorkspace,
  boundedRows,
  rateWindows,
  designer,
  knowledge,
  embeddings,
  knowledgeQuestions,
  broadcasts,
  consoleInbox,
  webVisitors,
  analyticsEvents,
  messageSearchBatches,
  operatorPresence,
  operatorInvites,
  draftProblems,
  faqPairs,
  consoleSso,
  auditLog,
  agentSecretsMcp,
  agentTraces,
  channelReplyAddress,
  agentApprovals,
];

export async function migrate(db: SqlDriver, context: MigrationContext, log: (line: string) => void = () => undefined): Promise<number> {
  return db.withMigrationLock(async () => {
    await db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    const done = new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
    let applied = 0;
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await db.transaction(async (tx) => {
        for (const statement of splitStatements(db.dialect === 'sqlite' ? migration.sqlite : migration.postgres)) {
          await tx.run(statement);
        }
        await migration.data?.(tx, context);
        await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, new Date().toISOString()]);
      });
      log(`applied migration ${migration.version} (${migration.name})`);
      applied++;
    }
    return applied;
  });
}

function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter((s) => s.length > 0);
}
