// What the designer's preview needs from storage: the conversations' port (its turns are real
// turns, kept apart under the bot's preview twin), the twin's row and its bounded conversations,
// and the draft it runs. Declared here and implemented by store/ (preview.ts, bots.ts and the
// conversations' repositories) on SQLite and PostgreSQL; wiring/ hands the preview this slice.
import type { BotRecord } from '../bots/model.js';
import type { BotRepository } from '../bots/port.js';
import type { ConversationStorage, TurnSave, TurnSaveOutcome, TurnWrites } from '../conversations/port.js';

/** A preview turn's transaction: a turn's writes, and the twin's row made with its first conversation. */
export interface PreviewWrites extends TurnWrites {
  preview: {
    /** creates the twin of `bot` as `twinId` unless it exists (keys random, never handed out) */
    ensureTwin(bot: BotRecord, twinId: string, now: number): Promise<void>;
    /** keeps the twin's `max` most recently active conversations; how many went */
    keepNewest(twinId: string, max: number): Promise<number>;
  };
}

export interface PreviewStorage extends Omit<ConversationStorage, 'bots' | 'saveTurn' | 'transaction'> {
  bots: Pick<BotRepository, 'byId' | 'draft' | 'draftWithProblems'>;
  saveTurn(turn: TurnSave): Promise<TurnSaveOutcome>;
  transaction<T>(work: (tx: PreviewWrites) => Promise<T>): Promise<T>;
  /** deletes preview conversations idle since before `before` (maintenance); how many */
  preview: { removeIdle(before: number): Promise<number> };
}
