// The broadcasts API (broadcasts.md "API"): create with an audience and a schedule, preview the
// audience, read a broadcast with its counts, list, cancel. The scheduler (scheduler.ts) runs them.
import crypto from 'node:crypto';
import type { BotRecord } from '../bots/model.js';
import { assertWritableVariables } from '../conversations/limits.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { BroadcastStorage } from './port.js';
import { walkAudience } from './audience.js';
import type { Audience, BroadcastMessage, BroadcastRecord, RecipientCounts, Template } from './model.js';
import { noticeBody } from './notice.js';
import { parseAt, USER_ZONE_LEAD_MS } from './schedule.js';

/** broadcasts still to run or running, per bot (docs/broadcasts.md "Limits") */
export const MAX_ACTIVE_BROADCASTS = 100;
/** how far ahead At and Repeat.Until may be (docs/limits.md) */
export const MAX_AHEAD_YEARS = 10;
const MAX_AHEAD_MS = MAX_AHEAD_YEARS * 365.25 * 86_400_000;
const LIST_LIMIT = 100;
const SAMPLE = 20;

export interface CreateBody {
  Name: string;
  Behaviour?: string;
  Message?: BroadcastMessage;
  Audience: Audience;
  At?: string;
  Repeat?: { Every: 'day' | 'week' | 'month'; Until?: string };
  UserTimeZone?: boolean;
  Variables?: Record<string, string>;
  Template?: Template;
}

export interface BroadcastServiceDeps {
  store: BroadcastStorage;
  clock: Clock;
  /** the live version's behaviour names, lower-cased (null: the bot has no live version) */
  behavioursOf(bot: BotRecord): Promise<Set<string> | null>;
  /** conversations read per audience query (AUDIENCE_PAGE) */
  audiencePage?: number;
  /** a broadcast was created or cancelled: the scheduler looks now rather than at its next poll */
  wake(): void;
}

export class BroadcastService {
  constructor(private readonly deps: BroadcastServiceDeps) {}

  async create(bot: BotRecord, body: CreateBody) {
    const now = this.deps.clock.now();
    checkWhat(body, await this.deps.behavioursOf(bot));
    const at = body.At === undefined ? { ms: now, offsetMinutes: 0 } : parseAt(body.At);
    if (!at || at.ms > now + MAX_AHEAD_MS)
      throw new AppError('INVALID_REQUEST', `At must be an ISO 8601 time with an offset (2026-12-01T09:00:00+01:00), at most ${MAX_AHEAD_YEARS} years ahead.`, { Field: 'body.At' });
    let until: number | undefined;
    if (body.Repeat?.Until !== undefined) {
      until = parseAt(body.Repeat.Until)?.ms;
      // no run starts after Until, and a past At starts now: so it must not be before either
      if (until === undefined || until < Math.max(at.ms, now) || until > now + MAX_AHEAD_MS) {
        throw new AppError('INVALID_REQUEST', `Repeat.Until must be an ISO 8601 time with an offset, not before At nor now, at most ${MAX_AHEAD_YEARS} years ahead.`, { Field: 'body.Repeat.Until' });
      }
    }
    assertWritableVariables(Object.entries(body.Variables ?? {}).map(([Name, Value]) => ({ Name, Value })));
    const record: BroadcastRecord = {
      id: crypto.randomUUID(),
      botId: bot.id,
      name: body.Name,
      spec: {
        Behaviour: body.Behaviour ?? null,
        Message: body.Message ?? null,
        Audience: body.Audience,
        Repeat: body.Repeat ? { Every: body.Repeat.Every, ...(until !== undefined ? { Until: until } : {}) } : null,
        UserTimeZone: body.UserTimeZone === true,
        Variables: body.Variables ?? {},
        Template: body.Template ?? null,
        AtOffsetMinutes: at.offsetMinutes,
      },
      status: 'scheduled',
      at: at.ms,
      // a run by users' zones starts early enough for the first zone to reach At's clock time
      nextRunAt: body.UserTimeZone === true ? at.ms - USER_ZONE_LEAD_MS : at.ms,
      run: 0,
      claimedUntil: 0,
      claimedBy: null,
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    // counted and written in one step (insertWithin), so concurrent creates cannot pass the cap
    if (!(await this.deps.store.transaction((tx) => tx.broadcasts.insertWithin(record, MAX_ACTIVE_BROADCASTS)))) {
      throw new AppError('LIMIT_EXCEEDED', `A bot has at most ${MAX_ACTIVE_BROADCASTS} broadcasts scheduled or running.`, { Limit: 'ActiveBroadcasts', Max: MAX_ACTIVE_BROADCASTS });
    }
    this.deps.wake();
    return this.view(record);
  }

  async preview(bot: BotRecord, audience: Audience): Promise<{ Count: number; Sample: string[] }> {
    const sample: string[] = [];
    const count = await walkAudience(
      this.deps.store.broadcasts,
      bot,
      audience,
      this.deps.clock,
      (c) => {
        if (sample.length < SAMPLE) sample.push(c.userId);
        return true;
      },
      this.deps.audiencePage,
    );
    return { Count: count, Sample: sample };
  }

  async get(bot: BotRecord, id: string) {
    return this.view(await this.find(bot, id));
  }

  async list(bot: BotRecord) {
    const records = await this.deps.store.broadcasts.byBot(bot.id, LIST_LIMIT);
    return { Result: await Promise.all(records.map((r) => this.view(r))) };
  }

  /** Stops it on every node: recipients not reached yet are skipped (`cancelled`). */
  async cancel(bot: BotRecord, id: string) {
    const record = await this.find(bot, id);
    const now = this.deps.clock.now();
    const cancelled = await this.deps.store.transaction(async (tx) => {
      if (!(await tx.broadcasts.update(record.id, null, { status: 'cancelled', nextRunAt: null }, now))) return false;
      await tx.broadcasts.skipPending(record.id, 'cancelled');
      return true;
    });
    if (!cancelled) throw new AppError('BROADCAST_ENDED', `The broadcast is ${record.status} already.`, { Status: record.status });
    const after = await this.find(bot, id);
    await this.deps.store.broadcasts.setNotice(id, noticeBody(bot, after, await this.counts(after)), now);
    this.deps.wake();
    return this.view(after);
  }

  private async find(bot: BotRecord, id: string): Promise<BroadcastRecord> {
    const record = await this.deps.store.broadcasts.byId(bot.id, id);
    if (!record) throw new AppError('BROADCAST_NOT_FOUND');
    return record;
  }

  private counts(r: BroadcastRecord): Promise<RecipientCounts> {
    return this.deps.store.broadcasts.counts(r.id, Math.max(1, r.run));
  }

  private async view(r: BroadcastRecord) {
    const iso = (ms: number | null) => (ms === null ? null : this.deps.clock.iso(ms));
    const repeat = r.spec.Repeat;
    return {
      BroadcastId: r.id,
      Name: r.name,
      Status: r.status,
      Behaviour: r.spec.Behaviour,
      Message: r.spec.Message ?? null,
      Audience: r.spec.Audience,
      At: iso(r.at)!,
      NextRunAt: r.status === 'scheduled' && r.nextRunAt !== null ? iso(r.nextRunAt + (r.spec.UserTimeZone ? USER_ZONE_LEAD_MS : 0)) : null,
      Repeat: repeat ? { Every: repeat.Every, Until: repeat.Until === undefined ? null : iso(repeat.Until) } : null,
      UserTimeZone: r.spec.UserTimeZone,
      Variables: r.spec.Variables,
      Template: r.spec.Template,
      Run: r.run,
      Error: r.error,
      CreatedAt: iso(r.createdAt)!,
      Counts: await this.counts(r),
    };
  }
}

/**
 * What each recipient gets: a behaviour of the live bot, or the broadcast's own message, never
 * both nor neither. A message's text must say something, its links be http(s), and its buttons'
 * behaviours be the live bot's.
 */
function checkWhat(body: CreateBody, behaviours: Set<string> | null): void {
  if ((body.Behaviour === undefined) === (body.Message === undefined)) {
    throw new AppError('INVALID_REQUEST', 'Give either Behaviour (a behaviour of the live bot to run) or Message (a text with buttons), not both nor neither.', { Field: 'body.Message' });
  }
  const unknown = (name: string) => !behaviours?.has(name.toLowerCase());
  if (body.Behaviour !== undefined) {
    if (unknown(body.Behaviour)) throw new AppError('BEHAVIOUR_NOT_FOUND', `The live bot has no behaviour named ${body.Behaviour}.`, { Field: 'body.Behaviour' });
    return;
  }
  const message = body.Message!;
  if (!behaviours) throw new AppError('VERSION_NOT_FOUND', 'The bot has no published version: publish it before broadcasting.', { Field: 'body.Message' });
  if (message.Text.trim() === '') throw new AppError('INVALID_REQUEST', 'Message.Text must say something.', { Field: 'body.Message.Text' });
  for (const [i, button] of (message.Buttons ?? []).entries()) {
    const field = `body.Message.Buttons[${i}]`;
    if ((button.Behaviour === undefined) === (button.Url === undefined))
      throw new AppError('INVALID_REQUEST', 'A button either starts a behaviour (Behaviour) or opens a link (Url).', { Field: field });
    if (button.Title.trim() === '') throw new AppError('INVALID_REQUEST', 'A button needs a title.', { Field: `${field}.Title` });
    if (button.Url !== undefined && !isWebLink(button.Url)) throw new AppError('INVALID_REQUEST', 'A link button opens an http or https address.', { Field: `${field}.Url` });
    if (button.Behaviour !== undefined && unknown(button.Behaviour))
      throw new AppError('BEHAVIOUR_NOT_FOUND', `The live bot has no behaviour named ${button.Behaviour}.`, { Field: `${field}.Behaviour` });
  }
}

function isWebLink(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
