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
  | { kind: 'typing'; botId: string; userId: string; channel: string; operatorName: string; at: number; origin?: string };

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

/**
 * Events of several nodes: delivered at once to this node's listeners, and relayed (NOTIFY) to
 * the other nodes, which deliver them to theirs. Each node ignores its own relayed copies. A
 * message too large for one notification reaches other nodes with `parts: []` and
 * `truncated: true`; their listeners re-read the history.
 */
export class RelayedEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private relay: { send(payload: string): void } | null = null;

  /** how this node's payloads begin (JSON.stringify keeps the key order of the envelope below) */
  private readonly ownPrefix: string;

  constructor(
    private readonly nodeId: string,
    private readonly maxPayloadBytes: number,
  ) {
    this.ownPrefix = `{"node":${JSON.stringify(nodeId)},`;
  }

  /** Other nodes may have listeners this node cannot see: wanted whenever there is a relay. */
  wanted(): boolean {
    return this.relay !== null || this.local.wanted();
  }

  attach(relay: { send(payload: string): void }): void {
    this.relay = relay;
  }

  /** Called with every relayed payload (including this node's own). */
  receive(payload: string): void {
    // This node's own payloads come back too: known by their start, without parsing them.
    if (payload.startsWith(this.ownPrefix)) return;
    let envelope: { node: string; event: ConversationEvent };
    try {
      envelope = JSON.parse(payload);
    } catch {
      return;
    }
    if (envelope.node !== this.nodeId) this.local.publish(envelope.event);
  }

  publish(event: ConversationEvent): void {
    const stamped = stampOrigin(event);
    this.local.publish(stamped);
    if (!this.relay) return;
    let payload = JSON.stringify({ node: this.nodeId, event: stamped });
    if (Buffer.byteLength(payload) > this.maxPayloadBytes && stamped.kind === 'message') {
      payload = JSON.stringify({ node: this.nodeId, event: { ...stamped, parts: [], truncated: true } });
    }
    if (Buffer.byteLength(payload) <= this.maxPayloadBytes) this.relay.send(payload);
  }

  subscribe(handler: (event: ConversationEvent) => void): () => void {
    return this.local.subscribe(handler);
  }
}
