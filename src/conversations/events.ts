// The live-event port: what the console and the web widget listen to. Events are published after
// the turn that caused them committed. In one process an EventEmitter carries them; the
// PostgreSQL implementation (several nodes) relays them through LISTEN/NOTIFY.
import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import type { ReplyPart } from '../engine/types.js';
import type { ControlState, Direction } from './model.js';

/** `origin`: who caused the event, when it was caused inside `withEventOrigin` (see below). */
export type ConversationEvent =
  | {
      kind: 'message';
      botId: string;
      userId: string;
      channel: string;
      direction: Direction;
      parts: ReplyPart[];
      /** where the turn that wrote it left the conversation: what a client's input should be now */
      enableUserChat: boolean;
      controlType: number;
      at: number;
      origin?: string;
      truncated?: boolean;
    }
  | { kind: 'state'; botId: string; userId: string; channel: string; state: ControlState; operator: string | null; at: number; origin?: string }
  | { kind: 'forgotten'; botId: string; userId: string; channel: string; at: number; origin?: string }
  /** an operator is writing to the user (console, throttled there); nothing is stored */
  | { kind: 'typing'; botId: string; userId: string; channel: string; operatorName: string; at: number; origin?: string }
  /**
   * a piece of a model's answer while it streams (answer-stream.ts): `text` goes at `offset` (in
   * UTF-16 units) of the text shown so far, `offset` 0 starts a new one; `failed`: take it back.
   * Never stored; the turn's message replaces it.
   */
  | { kind: 'delta'; botId: string; userId: string; channel: string; text: string; offset: number; failed: boolean; at: number; question?: string; origin?: string }
  /** a web visitor is writing (throttled by the web channel); for the console only, nothing is stored */
  | { kind: 'visitorTyping'; botId: string; userId: string; channel: string; at: number; origin?: string };

const origins = new AsyncLocalStorage<string>();

/**
 * Runs `work` so that every event published while it runs carries `origin`. A client that shows
 * the reply of its own request (the web widget) can then skip the live echo of that same turn,
 * without the turn machinery having to know about clients.
 */
export function withEventOrigin<T>(origin: string, work: () => Promise<T>): Promise<T> {
  return origins.run(origin, work);
}

/** Every bus implementation stamps events with this before it delivers or relays them. */
export function stampOrigin(event: ConversationEvent): ConversationEvent {
  const origin = origins.getStore();
  return origin !== undefined && event.origin === undefined ? { ...event, origin } : event;
}

export interface EventBus {
  /** false when no event published now could reach anyone: the publisher may skip building it */
  wanted(): boolean;
  publish(event: ConversationEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(handler: (event: ConversationEvent) => void): () => void;
  /**
   * Resolves once events published on any node reach this node's subscriptions made so far (a
   * relayed bus tells the other nodes that someone listens here); absent where that is at once.
   */
  reachable?(): Promise<void>;
  /** releases connections (the PostgreSQL relay) */
  close?(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every open console tab and widget is a listener; there is no meaningful limit.
    this.emitter.setMaxListeners(0);
  }

  wanted(): boolean {
    return this.emitter.listenerCount('event') > 0;
  }

  publish(event: ConversationEvent): void {
    // Most turns happen with no console or widget watching: skip the work of an event nobody gets.
    if (!this.wanted()) return;
    this.emitter.emit('event', stampOrigin(event));
  }

  subscribe(handler: (event: ConversationEvent) => void): () => void {
    const safe = (event: ConversationEvent) => {
      try {
        handler(event);
      } catch {
        // one broken listener must not stop the others
      }
    };
    this.emitter.on('event', safe);
    return () => this.emitter.off('event', safe);
  }
}
