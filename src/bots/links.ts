// Referenced clones stay linked to their master (api.md section 10). What is linked and what is
// the clone's own (docs/decisions.md "Clones"):
// - behaviours are linked unless the clone detached them (by name, case-insensitively, as names
//   match at run time); a behaviour the clone adds is its own from the start;
// - bot-wide triggers, the `nlp` section (intent triggers name its intents) and which behaviour
//   starts the bot follow the master;
// - variables are the clone's own defaults; a master's publish only adds the ones it lacks;
// - name, description, avatar and settings are the clone's own and are never touched here.
import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { BotStorage, BotWrites } from './port.js';
import type { Behaviour, BotFile } from '../engine/bot-file.js';
import { BOT_FORMAT } from '../engine/bot-file.js';
import { validateBotFile } from './validate.js';
import type { BotContent, BotRecord } from './model.js';

const nameKey = (name: string) => name.toLowerCase();

/** How many times a clone's republish is retried when a concurrent edit of the clone wins. */
const REPUBLISH_ATTEMPTS = 3;

/**
 * The clone's content once linked to `master`: the master's behaviours in the master's order, the
 * detached ones taken from `own` (the master's when `own` has none of that name, so nothing the
 * flow needs goes missing), then the clone's own behaviours the master does not have.
 */
export function mergeLinked(master: BotContent, own: BotContent, detached: readonly string[]): BotContent {
  const mine = new Set(detached.map(nameKey));
  const ownByName = new Map(own.behaviours.map((b) => [nameKey(b.name), b]));
  const masterNames = new Set(master.behaviours.map((b) => nameKey(b.name)));
  const behaviours: Behaviour[] = master.behaviours.map((b) => {
    const kept = mine.has(nameKey(b.name)) ? ownByName.get(nameKey(b.name)) : undefined;
    // Exactly one behaviour may start the bot: the master decides which, also among detached ones.
    return kept ? startingAs(kept, b.start === true) : structuredClone(b);
  });
  for (const b of own.behaviours) {
    if (mine.has(nameKey(b.name)) && !masterNames.has(nameKey(b.name))) behaviours.push(startingAs(b, false));
  }
  const merged: BotContent = {
    variables: { ...structuredClone(master.variables), ...structuredClone(own.variables) },
    triggers: structuredClone(master.triggers),
    behaviours,
  };
  if (master.nlp !== undefined) merged.nlp = structuredClone(master.nlp);
  return merged;
}

function startingAs(b: Behaviour, start: boolean): Behaviour {
  const copy = structuredClone(b);
  if ((copy.start === true) === start) return copy;
  if (start) copy.start = true;
  else delete copy.start;
  return copy;
}

/**
 * Checks a clone's new draft against its previous one: every linked behaviour must be there,
 * unchanged, and so must the bot-wide triggers and the choice of start behaviour (409
 * BEHAVIOUR_LINKED otherwise). Returns the clone's own behaviours afterwards: the detached ones it
 * kept plus the ones it added. A detached behaviour the clone deleted is linked again, which is
 * how a clone goes back to the master's.
 */
export function ownBehavioursAfterEdit(previous: BotContent, next: BotContent, detached: readonly string[]): string[] {
  const mine = new Set(detached.map(nameKey));
  const nextByName = new Map(next.behaviours.map((b) => [nameKey(b.name), b]));
  for (const b of previous.behaviours) {
    if (mine.has(nameKey(b.name))) continue;
    const now = nextByName.get(nameKey(b.name));
    if (!now || !isDeepStrictEqual(now, b)) {
      throw new AppError('BEHAVIOUR_LINKED', `Behaviour "${b.name}" is linked to the master bot: detach it before changing it.`, { Behaviour: b.name });
    }
  }
  const startOf = (content: BotContent) => content.behaviours.find((b) => b.start === true)?.name.toLowerCase();
  if (startOf(next) !== startOf(previous)) {
    throw new AppError('BEHAVIOUR_LINKED', 'Which behaviour starts a clone follows its master bot.', { Field: 'start' });
  }
  if (!isDeepStrictEqual(next.triggers, previous.triggers)) {
    throw new AppError('BEHAVIOUR_LINKED', "A clone's bot-wide triggers follow its master bot.", { Field: 'triggers' });
  }
  if (!isDeepStrictEqual(next.nlp, previous.nlp)) {
    throw new AppError('BEHAVIOUR_LINKED', "A clone's intents and entities follow its master bot.", { Field: 'nlp' });
  }
  const before = new Set(previous.behaviours.map((b) => nameKey(b.name)));
  return next.behaviours.filter((b) => mine.has(nameKey(b.name)) || !before.has(nameKey(b.name))).map((b) => b.name);
}

/** The merged content must still be a valid bot: a master's change can break a detached behaviour. */
export function checkMerged(bot: BotRecord, content: BotContent): void {
  const file: BotFile = { format: BOT_FORMAT, name: bot.name, description: bot.description, settings: bot.settings, ...content };
  if (bot.avatar) file.avatar = bot.avatar;
  const result = validateBotFile(file);
  if (!result.ok) {
    throw new AppError('INVALID_BOT', "The master's content does not fit this clone's detached behaviours.", { Problems: result.problems });
  }
}

/** What a master's publish did to one clone; listed in the publish answer as `Clones`. */
export interface CloneOutcome {
  APIKey: string;
  Version: number;
  Published: boolean;
  Code?: string;
  Message?: string;
  Problems?: unknown;
}

export class CloneLinks {
  constructor(
    private readonly store: BotStorage,
    private readonly clock: Clock,
  ) {}

  /** For a clone's draft edit: the check above with the stored detached list; null for other bots. */
  async ownAfterEdit(bot: BotRecord, previous: BotContent | undefined, next: BotContent): Promise<string[] | null> {
    if (bot.role !== 'clone' || !previous) return null;
    return ownBehavioursAfterEdit(previous, next, await this.store.bots.detached(bot.id));
  }

  /** A clone's rollback republishes its old detached behaviours, with the master's live content for the rest. */
  async relink(bot: BotRecord, content: BotContent): Promise<BotContent> {
    if (bot.role !== 'clone' || !bot.masterBotId) return content;
    const master = await this.store.bots.byId(bot.masterBotId);
    const live = master?.liveVersionId ? await this.store.bots.versionById(master.liveVersionId) : null;
    if (!live) return content;
    const merged = mergeLinked(live.content, content, await this.store.bots.detached(bot.id));
    checkMerged(bot, merged);
    return merged;
  }

  /**
   * After a master's publish: every clone is republished, each in a transaction of its own, so a
   * clone that cannot take the new content (or a failure midway) leaves the others published and
   * itself exactly as it was. The master's next publish tries again.
   */
  async propagate(master: BotRecord): Promise<CloneOutcome[]> {
    const outcomes: CloneOutcome[] = [];
    for (const clone of await this.store.bots.clonesOf(master.id)) {
      const outcome = await this.republish(master.id, clone);
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
  }

  private async republish(masterId: string, clone: BotRecord): Promise<CloneOutcome | null> {
    let version = clone.version;
    for (let attempt = 1; ; attempt++) {
      try {
        const next = await this.store.transaction((tx) => this.republishIn(tx, masterId, clone.id));
        // null: deleted, or released by the master's deletion, since the list was read.
        return next ? { APIKey: next.apiKey, Version: next.version, Published: true } : null;
      } catch (error) {
        const known = error instanceof AppError ? error : null;
        if (known?.code === 'VERSION_MISMATCH' && attempt < REPUBLISH_ATTEMPTS) continue;
        version = (await this.store.bots.byId(clone.id).catch(() => null))?.version ?? version;
        const failure: CloneOutcome = { APIKey: clone.apiKey, Version: version, Published: false, Code: known?.code ?? 'INTERNAL' };
        failure.Message = known?.message ?? 'The clone could not be republished.';
        if (known?.extra.Problems) failure.Problems = known.extra.Problems;
        return failure;
      }
    }
  }

  /** Reads everything afresh inside the transaction: a later publish of the master must win. */
  private async republishIn(tx: BotWrites, masterId: string, cloneId: string): Promise<BotRecord | null> {
    const current = await tx.bots.byId(cloneId);
    const master = await tx.bots.byId(masterId);
    if (!current || current.masterBotId !== masterId || !master?.liveVersionId) return null;
    const masterLive = (await tx.bots.versionById(master.liveVersionId))!.content;
    const detached = await tx.bots.detached(cloneId);
    const draft = (await tx.bots.draft(cloneId))!;
    const ownLive = current.liveVersionId ? ((await tx.bots.versionById(current.liveVersionId))?.content ?? draft) : draft;
    // The clone's unpublished draft edits stay unpublished: draft and live are merged separately.
    const nextDraft = mergeLinked(masterLive, draft, detached);
    const nextLive = mergeLinked(masterLive, ownLive, detached);
    checkMerged(current, nextDraft);
    checkMerged(current, nextLive);
    const next: BotRecord = { ...current, version: current.version + 1, updatedAt: this.clock.now() };
    // The nlp section follows the master (mergeLinked), and so does its trained model.
    const model = await tx.bots.nlpModel(master.liveVersionId);
    next.liveVersionId = await tx.bots.insertVersion(cloneId, next.version, nextLive, next.updatedAt, model);
    if (!(await tx.bots.update(next, current.version, nextDraft))) throw new AppError('VERSION_MISMATCH');
    return next;
  }
}
