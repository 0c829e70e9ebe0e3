// Events of several nodes (PostgreSQL): delivered at once to this node's listeners, and relayed
// (NOTIFY) to the other nodes, which deliver them to theirs. Each node ignores its own relayed
// copies. A message too large for one notification reaches other nodes with `parts: []` and
// `truncated: true`; their listeners re-read the history.
//
// Relaying costs every turn about a fifth of its time on PostgreSQL (the NOTIFY, and every node
// reading every notification back), so a node relays only while some other node has listeners:
// a node with listeners says so (`listening`) when it gets its first one and every
// PRESENCE_EVERY_MS while it has any; the others relay to it until PRESENCE_TTL_MS after the last
// time it said so. A node that starts asks who listens (`hello`), and nodes with listeners answer
// at once. `reachable()` resolves when this node's own `listening` came back through PostgreSQL,
// hence was delivered to every other node too: the web stream says `ready` only then.
import { InProcessEventBus, stampOrigin, type ConversationEvent, type EventBus } from './events.js';

const PRESENCE_EVERY_MS = 10_000;
const PRESENCE_TTL_MS = 30_000;
/** how long `reachable()` waits for the echo of this node's presence (a relay that is down) */
const ECHO_WAIT_MS = 2_000;

type Envelope = { node: string; event: ConversationEvent } | { node: string; listening: true } | { node: string; hello: true };

export class RelayedEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private relay: { send(payload: string): void } | null = null;
  /** the other nodes that have listeners, and until when they count as listening */
  private readonly listeningElsewhere = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;
  /** resolvers waiting for the echo of this node's last presence */
  private echoWaiters: Array<() => void> = [];
  private lastPresenceSent = 0;

  /** how this node's payloads begin (JSON.stringify keeps the key order of the envelopes) */
  private readonly ownPrefix: string;
  private readonly ownPresencePrefix: string;

  constructor(
    private readonly nodeId: string,
    private readonly maxPayloadBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.ownPrefix = `{"node":${JSON.stringify(nodeId)},`;
    this.ownPresencePrefix = `${this.ownPrefix}"listening":true`;
  }

  wanted(): boolean {
    return this.local.wanted() || this.othersListen();
  }

  attach(relay: { send(payload: string): void }): void {
    this.relay = relay;
    this.send({ node: this.nodeId, hello: true });
  }

  /** Called with every relayed payload (including this node's own). */
  receive(payload: string): void {
    if (payload.startsWith(this.ownPrefix)) {
      // This node's own payloads come back too: only the echo of its presence matters.
      if (payload.startsWith(this.ownPresencePrefix)) for (const resolve of this.echoWaiters.splice(0)) resolve();
      return;
    }
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload);
    } catch {
      return;
    }
    if (envelope.node === this.nodeId) return;
    if ('event' in envelope) this.local.publish(envelope.event);
    else if ('listening' in envelope) this.listeningElsewhere.set(envelope.node, this.now() + PRESENCE_TTL_MS);
    // a new node must hear of this node's listeners now, even if it said so a moment ago
    else if ('hello' in envelope && this.local.wanted()) this.sayListening(true);
  }

  publish(event: ConversationEvent): void {
    const stamped = stampOrigin(event);
    this.local.publish(stamped);
    if (!this.othersListen()) return;
    let payload = JSON.stringify({ node: this.nodeId, event: stamped });
    if (Buffer.byteLength(payload) > this.maxPayloadBytes && stamped.kind === 'message') {
      payload = JSON.stringify({ node: this.nodeId, event: { ...stamped, parts: [], truncated: true } });
    }
    if (Buffer.byteLength(payload) <= this.maxPayloadBytes) this.relay?.send(payload);
  }

  subscribe(handler: (event: ConversationEvent) => void): () => void {
    const unsubscribe = this.local.subscribe(handler);
    if (this.relay && this.heartbeat === null) {
      this.sayListening();
      this.heartbeat = setInterval(() => (this.local.wanted() ? this.sayListening() : this.stopHeartbeat()), PRESENCE_EVERY_MS);
      this.heartbeat.unref();
    }
    return unsubscribe;
  }

  reachable(): Promise<void> {
    if (!this.relay || !this.local.wanted()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ECHO_WAIT_MS);
      this.echoWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
      // A presence sent a moment ago may have come back already: say it again for this caller.
      this.sayListening(true);
    });
  }

  /** Stops the presence heartbeat and releases whoever waits for an echo (shutdown). */
  stop(): void {
    this.stopHeartbeat();
    for (const resolve of this.echoWaiters.splice(0)) resolve();
  }

  private sayListening(always = false): void {
    const now = this.now();
    // Many streams opening at once announce once (unless someone waits for the echo).
    if (!always && now - this.lastPresenceSent < 1000) return;
    this.lastPresenceSent = now;
    this.send({ node: this.nodeId, listening: true });
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private othersListen(): boolean {
    if (!this.relay) return false;
    const now = this.now();
    for (const [node, until] of this.listeningElsewhere) {
      if (until > now) return true;
      this.listeningElsewhere.delete(node);
    }
    return false;
  }

  private send(envelope: Envelope): void {
    this.relay?.send(JSON.stringify(envelope));
  }
}
