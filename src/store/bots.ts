// Bots. A bot's preview twin (designer.md, store/preview.ts) is a row here too, so that preview
// conversations hang off a bot id of their own; the reads below never return one.
// The API secret is read back (GET /bots shows it, webhooks are signed with it), so it is
// stored encrypted under the server key, bound to its bot; records carry it in clear.
import type { SecretBox } from '../auth/secret-box.js';
import { prepared, type Queryable } from './driver.js';
import { toAccount, type AccountRow } from './accounts.js';
import type { AccountRecord } from '../accounts/model.js';
import { VERSIONS_KEPT, type BotContent, type BotRecord, type DraftWithProblems, type BotRole, type BotVersionRecord, type Publisher } from '../bots/model.js';

interface BotRow {
  id: string;
  account_id: string;
  api_key: string;
  api_secret: string;
  secret_version: number;
  web_key: string;
  name: string;
  description: string;
  avatar: string;
  settings: string;
  version: number;
  live_version_id: number | null;
  role: string;
  master_bot_id: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = `id, account_id, api_key, api_secret, secret_version, web_key, name, description, avatar, settings,
  version, live_version_id, role, master_bot_id, created_at, updated_at`;

/** a bot token's principal, read on every request that carries one */
const WITH_ACCOUNT = prepared(`SELECT ${COLUMNS.replace(/(\w+)/g, 'b.$1')}, a.name AS a_name, a.plan AS a_plan, a.packages AS a_packages,
    a.key_version AS a_key_version, a.created_at AS a_created_at
  FROM bots b JOIN accounts a ON a.id = b.account_id WHERE b.id = $1 AND b.preview_of IS NULL`);

/**
 * The bot's secret is decrypted on first use, not on every read: a chat turn reads the bot (with
 * its account) to authenticate and never needs the secret, which only the token grant, GET /bots
 * and webhook signatures use. It reads as a plain, enumerable property (spreads copy its value).
 */
function withLazySecret(bot: Omit<BotRecord, 'apiSecret'>, decrypt: () => string): BotRecord {
  let secret: string | undefined;
  return Object.defineProperty(bot, 'apiSecret', { enumerable: true, get: () => (secret ??= decrypt()) }) as BotRecord;
}

export const botSecretContext = (botId: string) => `bots.api_secret:${botId}`;

const toBotWith =
  (secrets: SecretBox) =>
  (row: BotRow): BotRecord =>
    withLazySecret(
      {
        id: row.id,
        accountId: row.account_id,
        apiKey: row.api_key,
        secretVersion: Number(row.secret_version),
        webKey: row.web_key,
        name: row.name,
        description: row.description,
        avatar: row.avatar,
        settings: JSON.parse(row.settings),
        version: Number(row.version),
        liveVersionId: row.live_version_id === null ? null : Number(row.live_version_id),
        role: row.role as BotRole,
        masterBotId: row.master_bot_id,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      },
      () => secrets.decrypt(row.api_secret, botSecretContext(row.id)),
    );

/**
 * `onWrite` is told after every write to bot rows: cached principals (auth/principal-cache.ts)
 * carry the bot, so they must not outlive such a write on this node.
 */
export function botRepository(db: Queryable, secrets: SecretBox, onWrite: () => void = () => undefined) {
  const toBot = toBotWith(secrets);
  const sealed = (bot: BotRecord) => secrets.encrypt(bot.apiSecret, botSecretContext(bot.id));
  return {
    async insert(bot: BotRecord, draft: BotContent): Promise<void> {
      await db.run(
        `INSERT INTO bots (id, account_id, api_key, api_secret, secret_version, web_key, name, description, avatar,
           settings, draft, version, live_version_id, role, master_bot_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [
          bot.id,
          bot.accountId,
          bot.apiKey,
          sealed(bot),
          bot.secretVersion,
          bot.webKey,
          bot.name,
          bot.description,
          bot.avatar,
          JSON.stringify(bot.settings),
          JSON.stringify(draft),
          bot.version,
          bot.liveVersionId,
          bot.role,
          bot.masterBotId,
          bot.createdAt,
          bot.updatedAt,
        ],
      );
    },
    /**
     * Writes every mutable column, but only if the row still has `expectedVersion`: concurrent
     * edits cannot silently overwrite each other. Returns false when the row moved on. A new
     * `draft` also ends a draft saved with problems (it is the draft now).
     */
    async update(bot: BotRecord, expectedVersion: number, draft?: BotContent): Promise<boolean> {
      const changed = await db.run(
        `UPDATE bots SET api_secret = $2, secret_version = $3, name = $4, description = $5, avatar = $6, settings = $7,
           draft = COALESCE($8, draft), draft_with_problems = CASE WHEN $8 IS NULL THEN draft_with_problems ELSE NULL END, version = $9, live_version_id = $10, role = $11, master_bot_id = $12, updated_at = $13
         WHERE id = $1 AND version = $14`,
        [
          bot.id,
          sealed(bot),
          bot.secretVersion,
          bot.name,
          bot.description,
          bot.avatar,
          JSON.stringify(bot.settings),
          draft ? JSON.stringify(draft) : null,
          bot.version,
          bot.liveVersionId,
          bot.role,
          bot.masterBotId,
          bot.updatedAt,
          expectedVersion,
        ],
      );
      onWrite();
      return changed === 1;
    },
    /** Saves a draft with its problems (Version + 1), only if the row still has `expectedVersion`; `draft` is left as it was. */
    async saveDraftWithProblems(bot: BotRecord, expectedVersion: number, pending: DraftWithProblems): Promise<boolean> {
      const changed = await db.run('UPDATE bots SET draft_with_problems = $2, version = $3, updated_at = $4 WHERE id = $1 AND version = $5', [
        bot.id,
        JSON.stringify(pending),
        bot.version,
        bot.updatedAt,
        expectedVersion,
      ]);
      onWrite();
      return changed === 1;
    },
    /** The draft saved with problems, or null when the draft has none (then `draft` is the draft). */
    async draftWithProblems(botId: string): Promise<DraftWithProblems | null> {
      const row = await db.get<{ pending: string | null }>('SELECT draft_with_problems AS pending FROM bots WHERE id = $1', [botId]);
      return row?.pending ? JSON.parse(row.pending) : null;
    },
    /** The draft content (kept out of BotRecord: it can be megabytes and most requests never need it). */
    async draft(botId: string): Promise<BotContent | null> {
      const row = await db.get<{ draft: string }>('SELECT draft FROM bots WHERE id = $1', [botId]);
      return row ? JSON.parse(row.draft) : null;
    },
    async byId(id: string): Promise<BotRecord | null> {
      const row = await db.get<BotRow>(`SELECT ${COLUMNS} FROM bots WHERE id = $1 AND preview_of IS NULL`, [id]);
      return row ? toBot(row) : null;
    },
    /** A bot and its account in one read: what authenticating a bot token needs on every request. */
    async withAccount(botId: string): Promise<{ bot: BotRecord; account: AccountRecord } | null> {
      const row = await db.get<BotRow & { a_name: string; a_plan: string; a_packages: string; a_key_version: number; a_created_at: number }>(WITH_ACCOUNT, [botId]);
      if (!row) return null;
      const account: AccountRow = {
        id: row.account_id,
        name: row.a_name,
        plan: row.a_plan,
        packages: row.a_packages,
        key_version: row.a_key_version,
        created_at: row.a_created_at,
      };
      return { bot: toBot(row), account: toAccount(account) };
    },
    async byApiKey(apiKey: string): Promise<BotRecord | null> {
      const row = await db.get<BotRow>(`SELECT ${COLUMNS} FROM bots WHERE api_key = $1 AND preview_of IS NULL`, [apiKey]);
      return row ? toBot(row) : null;
    },
    /** The web channel's public key (the widget's only credential). */
    async byWebKey(webKey: string): Promise<BotRecord | null> {
      const row = await db.get<BotRow>(`SELECT ${COLUMNS} FROM bots WHERE web_key = $1 AND preview_of IS NULL`, [webKey]);
      return row ? toBot(row) : null;
    },
    async byAccount(accountId: string): Promise<BotRecord[]> {
      const rows = await db.all<BotRow>(`SELECT ${COLUMNS} FROM bots WHERE account_id = $1 AND preview_of IS NULL ORDER BY created_at, id`, [accountId]);
      return rows.map(toBot);
    },
    async clonesOf(masterId: string): Promise<BotRecord[]> {
      const rows = await db.all<BotRow>(`SELECT ${COLUMNS} FROM bots WHERE master_bot_id = $1 ORDER BY created_at, id`, [masterId]);
      return rows.map(toBot);
    },
    /** Names of the behaviours a referenced clone made its own (api.md section 10). */
    async detached(botId: string): Promise<string[]> {
      const row = await db.get<{ detached_behaviours: string }>('SELECT detached_behaviours FROM bots WHERE id = $1', [botId]);
      return row ? JSON.parse(row.detached_behaviours) : [];
    },
    /** Written next to a version-checked `update` in the same transaction: the version guards both. */
    async setDetached(botId: string, names: string[]): Promise<void> {
      await db.run('UPDATE bots SET detached_behaviours = $2 WHERE id = $1', [botId, JSON.stringify(names)]);
    },
    /**
     * A deleted master's clones become standard bots keeping their content. Version moves on in
     * SQL (not from a record read earlier), so a concurrent edit of a clone holding the old
     * Version fails its check instead of writing the clone role back.
     */
    async releaseClones(masterId: string, now: number): Promise<number> {
      const released = await db.run(
        `UPDATE bots SET role = 'standard', master_bot_id = NULL, detached_behaviours = '[]', version = version + 1, updated_at = $2
         WHERE master_bot_id = $1`,
        [masterId, now],
      );
      onWrite();
      return released;
    },
    async remove(id: string): Promise<void> {
      await db.run('DELETE FROM bots WHERE id = $1', [id]);
      onWrite();
    },
    /** `nlpModel`: the intent model trained from `content.nlp` (null when it has no intents). */
    async insertVersion(botId: string, version: number, content: BotContent, publishedAt: number, nlpModel: string | null, publishedBy: Publisher | null = null): Promise<number> {
      const row = await db.get<{ id: number }>('INSERT INTO bot_versions (bot_id, version, content, published_at, nlp_model, published_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id', [
        botId,
        version,
        JSON.stringify(content),
        publishedAt,
        nlpModel,
        publishedBy ? JSON.stringify(publishedBy) : null,
      ]);
      const id = Number(row!.id);
      // Only the live version's model is ever loaded (rollback trains again): the one it replaces
      // keeps its model for nodes still on it until they see the publish; older ones drop theirs,
      // which made bot_versions grow by a model (tens to hundreds of KB) on every publish.
      await db.run(
        `UPDATE bot_versions SET nlp_model = NULL WHERE bot_id = $1 AND nlp_model IS NOT NULL
           AND version < (SELECT MIN(version) FROM (SELECT version FROM bot_versions WHERE bot_id = $1 ORDER BY version DESC LIMIT 2) AS newest)`,
        [botId],
      );
      await db.run(
        `DELETE FROM bot_versions WHERE bot_id = $1
           AND version < (SELECT MIN(version) FROM (SELECT version FROM bot_versions WHERE bot_id = $1 ORDER BY version DESC LIMIT $2) AS kept)`,
        [botId, VERSIONS_KEPT],
      );
      return id;
    },
    async versions(botId: string): Promise<Array<Omit<BotVersionRecord, 'content'>>> {
      const rows = await db.all<{ id: number; bot_id: string; version: number; published_at: number; published_by: string | null }>(
        'SELECT id, bot_id, version, published_at, published_by FROM bot_versions WHERE bot_id = $1 ORDER BY version DESC',
        [botId],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        botId: r.bot_id,
        version: Number(r.version),
        publishedAt: Number(r.published_at),
        publishedBy: r.published_by ? (JSON.parse(r.published_by) as Publisher) : null,
      }));
    },
    async versionById(id: number): Promise<BotVersionRecord | null> {
      const row = await db.get<{ id: number; bot_id: string; version: number; content: string; published_at: number }>(
        'SELECT id, bot_id, version, content, published_at FROM bot_versions WHERE id = $1',
        [id],
      );
      return row ? { id: Number(row.id), botId: row.bot_id, version: Number(row.version), content: JSON.parse(row.content), publishedAt: Number(row.published_at) } : null;
    },
    /** The stored intent model of a version (kept out of versionById: it can be large and most reads never need it). */
    async nlpModel(versionId: number): Promise<string | null> {
      const row = await db.get<{ nlp_model: string | null }>('SELECT nlp_model FROM bot_versions WHERE id = $1', [versionId]);
      return row?.nlp_model ?? null;
    },
    async versionByNumber(botId: string, version: number): Promise<BotVersionRecord | null> {
      const row = await db.get<{ id: number }>('SELECT id FROM bot_versions WHERE bot_id = $1 AND version = $2', [botId, version]);
      return row ? this.versionById(Number(row.id)) : null;
    },
  };
}

export type BotRepository = ReturnType<typeof botRepository>;
