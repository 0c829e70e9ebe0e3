// Bot management (api.md section 11): create, edit the draft, settings, publish, versions,
// rollback, secret rotation, delete, backup and restore. Every edit bumps `Version` by one, with a
// version-checked write so two concurrent edits never silently overwrite each other.
import { newBotCredentials, newBotSecret } from '../shared/keys.js';
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { BotStorage, BotWrites } from './port.js';
import type { BotFile } from '../engine/bot-file.js';
import { contentOf, mergeSettings, normalizeSettings, toBotFile } from './files.js';
import { assignIds } from './ids.js';
import { CloneLinks, type CloneOutcome } from './links.js';
import { botOf, readBotFile } from './read.js';
import { BotFileReader } from './reader.js';
import { trainModel } from '../understanding/model.js';
import type { AccountRecord } from '../accounts/model.js';
import type { BotContent, BotRecord, Publisher } from './model.js';
import { diffContents, type BotChange } from './diff.js';
import type { Problem } from './problems.js';
import { mcpServerProblems } from './publish-checks.js';

export interface VersionInfo {
  Version: number;
  PublishedAt: string;
  /** null for versions from before this was kept, and for creates, clones and a master's republish */
  PublishedBy: PublisherView | null;
}

export type PublisherView = { Kind: 'operator'; OperatorId: string; Email: string; Name: string } | { Kind: 'account' };

const publisherView = (p: Publisher): PublisherView => (p.kind === 'operator' ? { Kind: 'operator', OperatorId: p.operatorId, Email: p.email, Name: p.name } : { Kind: 'account' });

/** The file with ids for what has none, keeping those of `previousDraft` (ids.ts). */
const withIds = (bot: BotFile, previousDraft?: BotContent): BotFile => assignIds(bot, previousDraft ? ({ ...bot, ...previousDraft } as BotFile) : undefined);

/** A saved draft; `problems` when the console kept it with problems. */
export type SavedDraft = BotRecord & { problems?: Problem[] };

/** A publish; a master's also says what became of each of its clones (api.md section 10). */
export type Published = BotRecord & { clones?: CloneOutcome[] };

export class BotService {
  private readonly links: CloneLinks;
  private readonly reader = new BotFileReader();

  constructor(
    private readonly store: BotStorage,
    private readonly clock: Clock,
  ) {
    this.links = new CloneLinks(store, clock);
  }

  /** Parses and validates a bot file on this thread; throws 400 INVALID_BOT listing every problem. */
  checkFile(raw: unknown, contentType?: string, previousDraft?: BotContent): BotFile {
    return withIds(botOf(readBotFile(raw, contentType)), previousDraft);
  }

  /** checkFile for a request's body: a large one is read off the request thread (reader.ts). */
  async readFile(raw: unknown, contentType?: string, previousDraft?: BotContent): Promise<BotFile> {
    return withIds(await this.reader.read(raw, contentType), previousDraft);
  }

  /** Creates a bot from a file; it is published at once (Version 1) so it can chat right away. */
  async create(account: AccountRecord, file: BotFile): Promise<BotRecord> {
    const now = this.clock.now();
    const bot: BotRecord = {
      ...newBotCredentials(),
      accountId: account.id,
      name: file.name,
      description: file.description ?? '',
      avatar: file.avatar ?? '',
      settings: normalizeSettings(file.settings),
      version: 1,
      liveVersionId: null,
      role: 'standard',
      masterBotId: null,
      createdAt: now,
      updatedAt: now,
    };
    const content = contentOf(file);
    const model = await trainModel(content.nlp);
    await this.store.transaction(async (tx) => {
      await tx.bots.insert(bot, content);
      bot.liveVersionId = await tx.bots.insertVersion(bot.id, bot.version, content, now, model);
      await tx.bots.update(bot, bot.version);
    });
    return bot;
  }

  /** The bot in `account` with this API key; 404 when unknown, 403 when it is another account's. */
  /** A bot by its API key, whatever its account (the command line's export). */
  byApiKey(apiKey: string): Promise<BotRecord | null> {
    return this.store.bots.byApiKey(apiKey);
  }

  /** The account's bots. */
  list(account: AccountRecord): Promise<BotRecord[]> {
    return this.store.bots.byAccount(account.id);
  }

  async owned(account: AccountRecord, apiKey: string): Promise<BotRecord> {
    const bot = await this.store.bots.byApiKey(apiKey);
    if (!bot) throw new AppError('BOT_NOT_FOUND');
    if (bot.accountId !== account.id) throw new AppError('TOKEN_SCOPE', 'This bot belongs to another account.');
    return bot;
  }

  /** The draft being edited: the one saved with problems when there is one (docs/designer.md "Saving"). */
  async draftFile(bot: BotRecord): Promise<BotFile> {
    return (await this.draftWithProblems(bot)).file;
  }

  /** The draft and its problems ([] when it has none). */
  async draftWithProblems(bot: BotRecord): Promise<{ file: BotFile; problems: Problem[] }> {
    const pending = await this.store.bots.draftWithProblems(bot.id);
    if (pending) return { file: { ...pending.file, version: bot.version } as unknown as BotFile, problems: pending.problems };
    return { file: await this.checkedDraftFile(bot), problems: [] };
  }

  /** The last draft without problems: what a duplicate or a backup is made of (they must be valid bots). */
  async checkedDraftFile(bot: BotRecord): Promise<BotFile> {
    const draft = await this.store.bots.draft(bot.id);
    if (!draft) throw new AppError('BOT_NOT_FOUND');
    return toBotFile(bot, draft);
  }

  /**
   * Replaces the draft. A file with problems is refused (400 INVALID_BOT), unless `keepProblems`
   * (the console): then it is kept with its problems, and the bot's content, name and settings
   * stay those of its last draft without problems until a save without problems.
   */
  async replaceDraft(bot: BotRecord, raw: unknown, contentType: string | undefined, ifMatch: number | null, keepProblems = false): Promise<SavedDraft> {
    if (ifMatch !== null && ifMatch !== bot.version) throw new AppError('VERSION_MISMATCH', undefined, { Version: bot.version });
    const previous = (await this.store.bots.draft(bot.id)) ?? undefined;
    const read = keepProblems ? await this.reader.readDraft(raw, contentType) : { ok: true as const, bot: await this.reader.read(raw, contentType) };
    if (!read.ok) {
      // Ids are given as to a valid file, so a button's payload is the same once the problems are fixed.
      const { version: _serverSets, ...file } = withIds(read.document as unknown as BotFile, previous) as unknown as Record<string, unknown>;
      const saved = await this.edit(bot, (tx, next) => tx.bots.saveDraftWithProblems(next, bot.version, { file, problems: read.problems }));
      return { ...saved, problems: read.problems };
    }
    const file = withIds(read.bot, previous);
    // A referenced clone may not change linked behaviours (409); its own ones are recorded.
    const own = await this.links.ownAfterEdit(bot, previous, contentOf(file));
    return this.edit(bot, async (tx, next) => {
      next.name = file.name;
      next.description = file.description ?? '';
      next.avatar = file.avatar ?? '';
      next.settings = normalizeSettings(file.settings);
      const saved = await tx.bots.update(next, bot.version, contentOf(file));
      if (saved && own) await tx.bots.setDetached(bot.id, own);
      return saved;
    });
  }

  async patchSettings(bot: BotRecord, patch: unknown): Promise<BotRecord> {
    const settings = mergeSettings(bot.settings, patch);
    const draft = await this.store.bots.draft(bot.id);
    // The merged settings must still make a valid bot file; the same validator reports the problems.
    const file = this.checkFile({ ...toBotFile(bot, draft!), settings, version: undefined });
    return this.edit(bot, async (tx, next) => {
      next.settings = normalizeSettings(file.settings);
      // A draft kept with problems takes the patch too: its next save would otherwise undo it.
      return (await tx.bots.update(next, bot.version)) && this.alsoInDraftWithProblems(tx, next, (pending) => ({ ...pending, settings: mergeSettings(pending.settings, patch) }));
    });
  }

  /** Applies `change` to the draft kept with problems, if there is one, in the edit's transaction. */
  private async alsoInDraftWithProblems(tx: BotWrites, next: BotRecord, change: (file: Record<string, unknown>) => Record<string, unknown>): Promise<boolean> {
    const pending = await tx.bots.draftWithProblems(next.id);
    return !pending || tx.bots.saveDraftWithProblems(next, next.version, { ...pending, file: change(pending.file) });
  }

  async publish(bot: BotRecord, by: Publisher | null = null): Promise<Published> {
    // Trained before the transaction (training takes CPU time, a transaction holds the writer): the
    // draft read here is the one published, since any edit in between moves Version and fails `edit`.
    const draft = await this.store.bots.draft(bot.id);
    if (!draft) throw new AppError('BOT_NOT_FOUND');
    const pending = await this.store.bots.draftWithProblems(bot.id);
    if (pending) throw new AppError('INVALID_BOT', `The draft has ${pending.problems.length} problem(s); fix them before publishing.`, { Problems: pending.problems });
    const servers = await this.store.mcpServers.byBot(bot.id);
    const problems = mcpServerProblems(
      draft,
      servers.map((s) => s.name),
    );
    if (problems.length > 0) throw new AppError('INVALID_BOT', `The draft has ${problems.length} problem(s); fix them before publishing.`, { Problems: problems });
    const model = await trainModel(draft.nlp);
    const published = await this.edit(bot, async (tx, next) => {
      next.liveVersionId = await tx.bots.insertVersion(bot.id, next.version, draft, next.updatedAt, model, by);
      return tx.bots.update(next, bot.version);
    });
    return this.republishClones(published);
  }

  /** After a master's publish (or rollback) has committed: each clone in a transaction of its own. */
  private async republishClones(published: BotRecord): Promise<Published> {
    return published.role === 'master' ? { ...published, clones: await this.links.propagate(published) } : published;
  }

  async versions(bot: BotRecord): Promise<VersionInfo[]> {
    const rows = await this.store.bots.versions(bot.id);
    return rows.map((v) => ({ Version: v.version, PublishedAt: this.clock.iso(v.publishedAt), PublishedBy: v.publishedBy ? publisherView(v.publishedBy) : null }));
  }

  /** A published version as a bot file (today's identity and settings: they are not versioned). */
  async versionFile(bot: BotRecord, version: number): Promise<BotFile> {
    const found = await this.store.bots.versionByNumber(bot.id, version);
    if (!found) throw new AppError('VERSION_NOT_FOUND');
    return toBotFile({ ...bot, version }, found.content);
  }

  /** What changed from one published version to another, or to the draft (diff.ts). */
  async diff(bot: BotRecord, from: number, to: number | 'draft'): Promise<{ From: number; To: number | 'draft'; Changes: BotChange[] }> {
    const before = await this.store.bots.versionByNumber(bot.id, from);
    const after = to === 'draft' ? { content: await this.draftContent(bot) } : await this.store.bots.versionByNumber(bot.id, to);
    if (!before || !after?.content) throw new AppError('VERSION_NOT_FOUND');
    return { From: from, To: to, Changes: diffContents(before.content, after.content) };
  }

  /** The draft's content, the one kept with problems when there is one (diff.ts reads any shape). */
  private async draftContent(bot: BotRecord): Promise<BotContent | null> {
    const pending = await this.store.bots.draftWithProblems(bot.id);
    return pending ? contentOf(pending.file as unknown as BotFile) : this.store.bots.draft(bot.id);
  }

  async rollback(bot: BotRecord, version: number, by: Publisher | null = null): Promise<Published> {
    const old = await this.store.bots.versionByNumber(bot.id, version);
    if (!old) throw new AppError('VERSION_NOT_FOUND');
    // A clone rolls back its own behaviours only: linked ones stay the master's live content.
    const content = await this.links.relink(bot, old.content);
    const model = await trainModel(content.nlp);
    const published = await this.edit(bot, async (tx, next) => {
      next.liveVersionId = await tx.bots.insertVersion(bot.id, next.version, content, next.updatedAt, model, by);
      return tx.bots.update(next, bot.version);
    });
    return this.republishClones(published);
  }

  /** A new secret; tokens issued with the old one stop working (their secret version is stale). */
  async rotateSecret(bot: BotRecord): Promise<BotRecord> {
    const next = { ...bot, apiSecret: newBotSecret(), secretVersion: bot.secretVersion + 1, updatedAt: this.clock.now() };
    const saved = await this.store.bots.update(next, bot.version);
    if (!saved) throw new AppError('VERSION_MISMATCH', 'The bot changed during the rotation; try again.');
    return next;
  }

  /** A new name; the draft and the live version keep their content (the name is the bot's). */
  rename(bot: BotRecord, name: string): Promise<BotRecord> {
    return this.edit(bot, async (tx, next) => {
      next.name = name;
      return (await tx.bots.update(next, bot.version)) && this.alsoInDraftWithProblems(tx, next, (pending) => ({ ...pending, name }));
    });
  }

  /**
   * A new bot of the same account from this one's draft, published at once as `create` does.
   * Conversations, knowledge sources, channels and keys are the original's alone.
   */
  async duplicate(account: AccountRecord, bot: BotRecord, name: string): Promise<BotRecord> {
    const file = await this.checkedDraftFile(bot);
    return this.create(account, { ...file, name });
  }

  async remove(bot: BotRecord): Promise<void> {
    // A master's clones keep their content and become standard bots, atomically with the delete.
    // Not only when `bot` says master: a refclone may have made it one since it was read.
    await this.store.transaction(async (tx) => {
      await tx.bots.releaseClones(bot.id, this.clock.now());
      await tx.bots.remove(bot.id);
    });
  }

  /** One edit: Version + 1, written only if nobody else edited the bot meanwhile. */
  private async edit(bot: BotRecord, write: (tx: BotWrites, next: BotRecord) => Promise<boolean>): Promise<BotRecord> {
    const next: BotRecord = { ...bot, version: bot.version + 1, updatedAt: this.clock.now() };
    const saved = await this.store.transaction(async (tx) => {
      const ok = await write(tx, next);
      if (!ok) throw new AppError('VERSION_MISMATCH', 'The bot was changed by another request; reload and try again.');
      return ok;
    });
    return saved ? next : bot;
  }
}
