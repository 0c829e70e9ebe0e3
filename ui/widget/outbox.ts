// Messages the visitor sent that the server has not answered yet. They are kept in localStorage
// as well as in memory, so that a reload, a closed tab or a long outage loses nothing typed: the
// next page of the same visitor sends them. Each carries its own id (`MessageId`), which the server
// records with the turn, so a message sent again after an answer that never came runs once.
import { storage } from './storage.js';

export type What = { Text: string } | { Command: string };

export interface Unsent {
  id: string;
  /** the conversation it was written in */
  userId: string;
  what: What;
  /** what the transcript shows (a button's text for a command) */
  label: string;
  /** refused for good (a 4xx): waits for the visitor's "Retry" */
  failed?: boolean;
  /** its row in the transcript (not kept) */
  row?: HTMLElement | null;
}

/** A page cannot fill the visitor's storage: beyond this many waiting messages, the oldest go. */
const MAX_KEPT = 20;

export class Outbox {
  private items: Unsent[];

  constructor(private readonly key: string) {
    let kept: unknown = null;
    try {
      kept = JSON.parse(storage.get(key) ?? '[]');
    } catch {
      // a damaged entry is no message
    }
    this.items = Array.isArray(kept) ? kept.filter(isUnsent) : [];
  }

  get all(): readonly Unsent[] {
    return this.items;
  }

  get size(): number {
    return this.items.length;
  }

  /** The oldest message that may be sent now (not refused for good). */
  next(): Unsent | undefined {
    return this.items.find((item) => !item.failed);
  }

  add(item: Unsent): void {
    this.items.push(item);
    this.save();
  }

  remove(item: Unsent): void {
    this.items = this.items.filter((other) => other !== item);
    this.save();
  }

  /** Takes every message out (a conversation that went away: they are written again in the new one). */
  takeAll(): Unsent[] {
    const all = this.items;
    this.items = [];
    this.save();
    return all;
  }

  setFailed(item: Unsent, failed: boolean): void {
    item.failed = failed;
    this.save();
  }

  private save(): void {
    const kept = this.items.slice(-MAX_KEPT).map(({ id, userId, what, label, failed }) => ({ id, userId, what, label, failed }));
    storage.set(this.key, kept.length > 0 ? JSON.stringify(kept) : null);
  }
}

function isUnsent(value: unknown): value is Unsent {
  const item = value as Partial<Unsent> | null;
  const what = item?.what as Record<string, unknown> | undefined;
  return typeof item?.id === 'string' && typeof item.userId === 'string' && typeof item.label === 'string' && (typeof what?.Text === 'string' || typeof what?.Command === 'string');
}
