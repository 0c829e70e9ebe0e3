// The live-event port: what the console and the web widget listen to. Events are published after
// the turn that caused them committed. In one process an EventEmitter carries them; the
// PostgreSQL implementation (several nodes) relays them through LISTEN/NOTIFY.
import { EventEmitter } from 'node:events';
import type { ReplyPart } from '../engine/types.js';
import type { ControlState, Direction } from '../store/conversations.js';

export type ConversationEvent =
  | { kind: 'message'; botId: string; userId: string; channel: string; direction: Direction; parts: ReplyPart[]; at: number }
  | { kind: 'state'; botId: string; userId: string; channel: string; state: ControlState; operator: string | null; at: number }
  | { kind: 'forgotten'; botId: string; userId: string; channel: string; at: number };

export interface EventBus {
  publish(event: ConversationEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(handler: (event: ConversationEvent) => void): () => void;
}

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every open console tab and widget is a listener; there is no meaningful limit.
    this.emitter.setMaxListeners(0);
  }

  publish(event: ConversationEvent): void {
    this.emitter.emit('event', event);
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
