// A bot's retention policy (governance.md "Retention"; bot file `settings.retention`): a
// conversation with no activity for `inactiveDays`, or older than `keepDays`, is forgotten exactly
// as `state=forget` forgets it, by the maintenance that already runs (maintenance.ts), never a
// second deletion path: a run marks a bounded batch `forgetting` (the mark a forget's turn sets),
// in one short transaction with its audit entry, then the forget path deletes what is marked
// (forgetting.ts). A stop between the two leaves the marks, and the next pass, on this node or
// another, deletes them (Forgetting.finishInterrupted): each conversation is forgotten once, and
// counted once, in the run that marked it. Conversations an operator holds (state 2) are kept
// until handed back; waiting ones (state 1) follow the policy. "Activity" is the conversation's
// last change (updated_at): a message, a turn, a control change.
import type { BotSettings } from '../engine/bot-file.js';
import { DAY_MS } from '../shared/durations.js';
import type { Clock } from '../shared/clock.js';
import type { Forgetting } from './forgetting.js';
import type { DueRule, RetentionPolicyStorage } from './governance-port.js';

/** Conversations one run marks: one short transaction, so turns are never held for long. */
export const RETENTION_BATCH = 500;
/** How often a node looks (maintenance ticks every second; governance.md asks at least once a minute). */
const EVERY_MS = 30_000;

export interface RetentionSettings {
  inactiveDays?: number;
  keepDays?: number;
}

export interface RetentionView {
  InactiveDays: number;
  KeepDays: number;
  Due: number;
  LastRun: string | null;
}

const lastRunKey = (botId: string) => `retention-run:${botId}`;
const days = (value: unknown) => (typeof value === 'number' && value >= 0.0001 ? value : 0);

export function retentionOf(settings: BotSettings): { inactiveDays: number; keepDays: number } {
  const r: RetentionSettings = settings.retention ?? {};
  return { inactiveDays: days(r.inactiveDays), keepDays: days(r.keepDays) };
}

export function dueRule(settings: BotSettings, now: number): DueRule | null {
  const { inactiveDays, keepDays } = retentionOf(settings);
  if (inactiveDays === 0 && keepDays === 0) return null;
  return { idleBefore: inactiveDays ? now - inactiveDays * DAY_MS : 0, createdBefore: keepDays ? now - keepDays * DAY_MS : 0 };
}

export class ConversationRetention {
  private ranAt = 0;

  constructor(
    private readonly store: RetentionPolicyStorage,
    private readonly forgetting: Forgetting,
    private readonly clock: Clock,
  ) {}

  /** Maintenance's chore: a pass every EVERY_MS (and at start). */
  async run(): Promise<void> {
    const now = this.clock.now();
    if (this.ranAt !== 0 && now - this.ranAt < EVERY_MS) return;
    this.ranAt = now;
    for (const bot of await this.store.retentionPolicy.botsWithRetention()) {
      const rule = dueRule(bot.settings, now);
      if (!rule) continue;
      while ((await this.runOnce(bot, rule)) === RETENTION_BATCH);
      await this.store.meta.set(lastRunKey(bot.id), String(now));
    }
  }

  /**
   * One run: a batch marked, with its audit entry, in one transaction; then deleted through the
   * forget path. Says how many it marked. Public so that a test can stop between the two steps.
   */
  async runOnce(bot: { id: string; accountId: string }, rule: DueRule, deleteMarked = true): Promise<number> {
    const marked = await this.store.transaction(async (tx) => {
      const found = await tx.retentionPolicy.markDue(bot.id, rule, RETENTION_BATCH);
      if (found.length > 0) {
        await tx.audit.append({
          accountId: bot.accountId,
          at: this.clock.now(),
          actor: 'retention',
          actorKind: 'system',
          action: 'retention',
          target: `bot:${bot.id}`,
          ip: '',
          details: { Count: found.length },
        });
      }
      return found;
    });
    if (deleteMarked && marked.length > 0) await this.forgetting.forgetMarked(marked);
    return marked.length;
  }

  /** GET /bots/{APIKey}/retention. */
  async view(bot: { id: string; settings: BotSettings }): Promise<RetentionView> {
    const { inactiveDays, keepDays } = retentionOf(bot.settings);
    const rule = dueRule(bot.settings, this.clock.now());
    const last = await this.store.meta.get(lastRunKey(bot.id));
    return {
      InactiveDays: inactiveDays,
      KeepDays: keepDays,
      Due: rule ? await this.store.retentionPolicy.countDue(bot.id, rule) : 0,
      LastRun: last ? this.clock.iso(Number(last)) : null,
    };
  }
}
