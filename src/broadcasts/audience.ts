// Who a broadcast reaches (broadcasts.md "Audience"): the bot's conversations for which every
// given condition holds, never a banned, forgotten, opted-out or operator-held one. The preview
// and the run use this one selection, so the preview's count is the run's audience.
import type { BotRecord } from '../bots/model.js';
import { excludedBecause } from '../conversations/broadcast-rules.js';
import type { Clock } from '../shared/clock.js';
import type { Audience, AudienceCandidate, VariableCondition } from './model.js';
import { DAY_MS } from '../shared/durations.js';

/** conversations read per query: the walk holds one page of states at a time, never the whole bot */
export const AUDIENCE_PAGE = 1000;
/** user ids looked up per query */
const USER_ID_CHUNK = 500;
/** the largest audience of one run (docs/broadcasts.md "Limits") */
export const MAX_AUDIENCE = 100_000;

export interface CandidateSource {
  candidates(botId: string, afterId: number, limit: number, userIds?: string[]): Promise<AudienceCandidate[]>;
}

export function matchesAudience(c: AudienceCandidate, a: Audience, now: number): boolean {
  if (a.Channels && !(a.Channels as string[]).includes(c.channel)) return false;
  const tags = new Set(c.state.tags);
  if (a.Tags?.all && !a.Tags.all.every((t) => tags.has(t))) return false;
  if (a.Tags?.any && a.Tags.any.length > 0 && !a.Tags.any.some((t) => tags.has(t))) return false;
  if (a.Tags?.none?.some((t) => tags.has(t))) return false;
  if (a.Variables && !a.Variables.every((v) => holds(v, c.state.variables[v.Name]))) return false;
  if (a.ActiveWithinDays !== undefined && now - c.lastUserAt > a.ActiveWithinDays * DAY_MS) return false;
  if (a.InactiveForDays !== undefined && now - c.lastUserAt < a.InactiveForDays * DAY_MS) return false;
  return true;
}

/** A variable condition; `lt`/`gt` compare numbers when both sides are numbers, else texts (ISO dates order as texts). */
function holds(v: VariableCondition, value: string | undefined): boolean {
  const present = value !== undefined && value !== '';
  switch (v.Op) {
    case 'exists':
      return present;
    case 'missing':
      return !present;
    case 'eq':
      return value === (v.Value ?? '');
    case 'ne':
      return value !== (v.Value ?? '');
    case 'lt':
    case 'gt': {
      if (!present) return false;
      const [x, y] = [Number(value), Number(v.Value)];
      const order =
        Number.isFinite(x) && Number.isFinite(y) && value.trim() !== '' && (v.Value ?? '').trim() !== '' ? Math.sign(x - y) : value < (v.Value ?? '') ? -1 : value > (v.Value ?? '') ? 1 : 0;
      return v.Op === 'lt' ? order < 0 : order > 0;
    }
  }
}

/**
 * Walks the audience in conversation id order, a page of `page` conversations at a time (keyset:
 * each query starts after the last id seen, so a conversation created or deleted meanwhile neither
 * repeats nor hides another); `take` gets each member and returns false to stop. Returns how many
 * members it saw.
 */
export async function walkAudience(source: CandidateSource, bot: BotRecord, a: Audience, clock: Clock, take: (c: AudienceCandidate) => boolean, page = AUDIENCE_PAGE): Promise<number> {
  const now = clock.now();
  let count = 0;
  const visit = (rows: AudienceCandidate[]): boolean => {
    for (const c of rows) {
      if (excludedBecause(c, clock) || !matchesAudience(c, a, now)) continue;
      count++;
      if (!take(c)) return false;
    }
    return true;
  };
  if (a.UserIds) {
    const unique = [...new Set(a.UserIds)];
    // a user id names one conversation of the bot (unique), so a chunk of ids is at most a page
    const chunk = Math.min(USER_ID_CHUNK, page);
    for (let i = 0; i < unique.length; i += chunk) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (!visit(await source.candidates(bot.id, 0, chunk, unique.slice(i, i + chunk)))) break;
    }
    return count;
  }
  for (let after = 0; ; ) {
    // between pages other requests run: on SQLite every query is synchronous, and a walk of
    // 100,000 conversations held the event loop (and /health) for 2.4 s (docs/performance.md)
    if (after > 0) await new Promise((resolve) => setImmediate(resolve));
    const rows = await source.candidates(bot.id, after, page);
    if (rows.length === 0 || !visit(rows)) break;
    after = rows.at(-1)!.conversationId;
  }
  return count;
}
