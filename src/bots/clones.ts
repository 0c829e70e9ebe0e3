// Clones of a bot (api.md section 10): referenced clones that stay linked to a master bot, full
// detached copies with tagged text filled in, and detaching one behaviour of a referenced clone.
// Both kinds start with the source's draft as draft and its live version as live version, so
// they chat at once; the linking itself (publish, edits, rollback) is in links.ts.
import crypto from 'node:crypto';
import { trainModel } from '../understanding/model.js';
import { newBotCredentials, sameSecret } from '../shared/keys.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { BotStorage, BotWrites } from './port.js';
import type { BotFile } from '../engine/bot-file.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import { fillTags, fillTagsDeep, tagValues } from './tags.js';
import { validateBotFile } from './validate.js';
import type { AccountRecord } from '../accounts/model.js';
import type { BotContent, BotRecord } from './model.js';

export const MASTER_BOT_PACKAGE = 'master-bot';

export interface SourceCredentials {
  BotAPIKey?: string;
  BotSecret?: string;
}

export interface CloneDestination {
  BotName?: string;
  Variables?: Array<{ Name?: string; Value?: string | number | null }>;
}

const nameKey = (name: string) => name.toLowerCase();

function required<T>(value: T | undefined | null, field: string): T {
  if (value === undefined || value === null || value === '') throw new AppError('MISSING_FIELD', `${field} is required.`, { Field: field });
  return value;
}

/** The source's key and secret, both required (checked before anything is looked up). */
function sourceFields(credentials: SourceCredentials | undefined): { key: string; secret: string } {
  const source = required(credentials, 'Source');
  return { key: required(source.BotAPIKey, 'Source.BotAPIKey'), secret: required(source.BotSecret, 'Source.BotSecret') };
}

export class CloneService {
  constructor(
    private readonly store: BotStorage,
    private readonly clock: Clock,
  ) {}

  /**
   * The source bot of a clone request. Unknown key, a bot of another account and a wrong secret
   * get one answer (404 BOT_NOT_FOUND), as on the token endpoint: nothing tells them apart.
   */
  private async source(account: AccountRecord, { key, secret }: { key: string; secret: string }): Promise<BotRecord> {
    const bot = await this.store.bots.byApiKey(key);
    if (!bot || bot.accountId !== account.id || !sameSecret(secret, bot.apiSecret)) throw new AppError('BOT_NOT_FOUND');
    return bot;
  }

  /** POST /bot/refclone: the source becomes a master (Version + 1 when it was standard). */
  async refClone(account: AccountRecord, credentials: SourceCredentials | undefined): Promise<BotRecord> {
    // Fields first, then the package, then the source: an account without the package learns
    // nothing about the bots it names.
    const fields = sourceFields(credentials);
    if (!account.packages.includes(MASTER_BOT_PACKAGE)) {
      throw new AppError('PACKAGE_REQUIRED', `Reference clones need the ${MASTER_BOT_PACKAGE} package.`, { Package: MASTER_BOT_PACKAGE });
    }
    const source = await this.source(account, fields);
    if (source.role === 'clone') {
      throw new AppError('STATE_CONFLICT', 'This bot is a referenced clone; a master cannot be a clone too. Clone its master instead.');
    }
    return this.store.transaction(async (tx) => {
      // Read again inside the transaction: the role change is a version-checked edit.
      const current = await tx.bots.byId(source.id);
      if (!current) throw new AppError('BOT_NOT_FOUND');
      if (current.role === 'standard') {
        const master: BotRecord = { ...current, role: 'master', version: current.version + 1, updatedAt: this.clock.now() };
        if (!(await tx.bots.update(master, current.version))) throw new AppError('VERSION_MISMATCH', 'The bot was changed by another request; try again.');
      }
      const { draft, live } = await this.contentOf(tx, current);
      // A referenced clone runs its master's live content, so its master's model too.
      const model = current.liveVersionId !== null ? await tx.bots.nlpModel(current.liveVersionId) : await trainModel(live.nlp);
      return this.insertCopy(tx, current, { name: current.name, role: 'clone', masterBotId: current.id }, draft, live, model);
    });
  }

  /** POST /bot/clone: a standard bot named `BotName`, every known `[[name]]` filled in. */
  async fullClone(account: AccountRecord, credentials: SourceCredentials | undefined, destination: CloneDestination | undefined): Promise<BotRecord> {
    const fields = sourceFields(credentials);
    const target = required(destination, 'Destination');
    const name = required(target.BotName?.trim(), 'Destination.BotName');
    const variables = (target.Variables ?? []).map((v, i) => {
      // An empty Value is a value (the tag becomes empty text); only an absent one is missing.
      if (v.Value === undefined || v.Value === null) throw new AppError('MISSING_FIELD', `Destination.Variables[${i}].Value is required.`, { Field: `Destination.Variables[${i}].Value` });
      return { Name: required(v.Name?.trim(), `Destination.Variables[${i}].Name`), Value: String(v.Value) };
    });
    const values = tagValues(variables);
    const source = await this.source(account, fields);
    // Filled and validated outside the transaction: validation is CPU work that need not hold it.
    const content = await this.contentOf(this.store, source);
    const draft = fillTagsDeep(content.draft, values);
    const live = fillTagsDeep(content.live, values);
    const identity = {
      name,
      role: 'standard' as const,
      masterBotId: null,
      description: fillTags(source.description, values),
      avatar: fillTags(source.avatar, values),
      settings: fillTagsDeep(source.settings, values),
    };
    // A value can break a rule (an invalid URL, two behaviours with one name): say which.
    for (const filled of [draft, live]) {
      const file: BotFile = { format: BOT_FORMAT, name, description: identity.description, settings: identity.settings, ...filled };
      if (identity.avatar) file.avatar = identity.avatar;
      const result = validateBotFile(file);
      if (!result.ok) throw new AppError('INVALID_BOT', 'The clone with these Variables is not a valid bot.', { Problems: result.problems });
    }
    // Clone tags may have changed the examples: the copy's model is trained from what it holds.
    const model = await trainModel(live.nlp);
    return this.store.transaction(async (tx) => {
      const copy = await this.insertCopy(tx, source, identity, draft, live, model);
      // knowledge.md: a full clone copies the sources (those its source answers from), passages and all
      const owner = source.role === 'clone' && source.masterBotId !== null ? source.masterBotId : source.id;
      await tx.knowledge.copyAll(owner, copy.id, () => crypto.randomUUID(), live.nlp?.language ?? 'en', copy.createdAt);
      return copy;
    });
  }

  /** POST /bots/{APIKey}/detach: one linked behaviour becomes the clone's own (Version + 1). */
  async detach(bot: BotRecord, behaviour: string | undefined): Promise<{ bot: BotRecord; detached: string[] }> {
    const wanted = required(behaviour?.trim(), 'Behaviour');
    if (bot.role !== 'clone') throw new AppError('STATE_CONFLICT', 'Only a referenced clone has behaviours linked to a master.');
    const draft = await this.store.bots.draft(bot.id);
    const found = draft?.behaviours.find((b) => nameKey(b.name) === nameKey(wanted));
    if (!found) throw new AppError('BEHAVIOUR_NOT_FOUND', `The clone has no behaviour "${wanted}".`, { Behaviour: wanted });
    const detached = await this.store.bots.detached(bot.id);
    // Detaching twice changes nothing, so it is not an edit and Version stays.
    if (detached.some((name) => nameKey(name) === nameKey(found.name))) return { bot, detached };
    const names = [...detached, found.name];
    const next: BotRecord = { ...bot, version: bot.version + 1, updatedAt: this.clock.now() };
    await this.store.transaction(async (tx) => {
      if (!(await tx.bots.update(next, bot.version))) throw new AppError('VERSION_MISMATCH', 'The bot was changed by another request; reload and try again.');
      await tx.bots.setDetached(bot.id, names);
    });
    return { bot: next, detached: names };
  }

  /** The draft and live content of a bot (a bot without a live version gets its draft as live). */
  private async contentOf(tx: BotWrites, bot: BotRecord): Promise<{ draft: BotContent; live: BotContent }> {
    const draft = await tx.bots.draft(bot.id);
    if (!draft) throw new AppError('BOT_NOT_FOUND');
    const live = bot.liveVersionId !== null ? await tx.bots.versionById(bot.liveVersionId) : null;
    return { draft, live: live?.content ?? draft };
  }

  /** A new bot in the source's account with credentials of its own, published at once (Version 1). */
  private async insertCopy(
    tx: BotWrites,
    source: BotRecord,
    identity: Partial<BotRecord> & Pick<BotRecord, 'name' | 'role' | 'masterBotId'>,
    draft: BotContent,
    live: BotContent,
    nlpModel: string | null,
  ): Promise<BotRecord> {
    const now = this.clock.now();
    const bot: BotRecord = {
      ...newBotCredentials(),
      accountId: source.accountId,
      description: source.description,
      avatar: source.avatar,
      // Settings are copied once; from now on they are the clone's own (webhook URL included).
      settings: structuredClone(source.settings),
      ...identity,
      version: 1,
      liveVersionId: null,
      createdAt: now,
      updatedAt: now,
    };
    await tx.bots.insert(bot, draft);
    bot.liveVersionId = await tx.bots.insertVersion(bot.id, bot.version, live, now, nlpModel);
    await tx.bots.update(bot, bot.version);
    return bot;
  }
}
