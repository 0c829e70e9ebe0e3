// Who has the console open, for a team's round robin (issue 27). Every node on one database must
// agree, so presence is kept in the store (migration 023), not in this node's memory: a row per
// operator per node while this node holds at least one of their console live streams (tabs are
// counted here), refreshed by the streams' heartbeat, deleted when the last one closes. A node
// that dies without closing leaves rows that expire after PRESENCE_TTL_MS.
import crypto from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import type { PresenceStorage } from './port.js';

/** Four missed 15 s stream heartbeats: long enough for a busy node, short for a dead one. */
export const PRESENCE_TTL_MS = 60_000;

export interface Presence {
  /** the first write: other nodes see the operator online once it resolves */
  written: Promise<void>;
  /** the stream's heartbeat: still here (also writes again what a failed first write missed) */
  refresh(): Promise<void>;
  /** the stream closed (called once; later calls do nothing) */
  leave(): Promise<void>;
}

export class OperatorPresence {
  private readonly node = crypto.randomUUID();
  private readonly streams = new Map<string, number>();
  constructor(private readonly deps: { store: PresenceStorage; clock: Clock }) {}

  /** A console live stream of the operator opened on this node. */
  join(operatorId: string): Presence {
    this.streams.set(operatorId, (this.streams.get(operatorId) ?? 0) + 1);
    let left = false;
    const written = this.beat(operatorId);
    return {
      written,
      refresh: async () => {
        if (!left) await this.beat(operatorId);
      },
      leave: async () => {
        if (left) return;
        left = true;
        const n = (this.streams.get(operatorId) ?? 1) - 1;
        if (n > 0) return void this.streams.set(operatorId, n);
        this.streams.delete(operatorId);
        // after the first write, or a stream closed at once would leave its row until it expires
        await written.catch(() => undefined);
        await this.deps.store.presence.leave(operatorId, this.node);
      },
    };
  }

  /** Those of `operatorIds` with a console live stream open on any node. */
  online(operatorIds: string[]): Promise<Set<string>> {
    return this.deps.store.presence.online(operatorIds, this.deps.clock.now());
  }

  private beat(operatorId: string): Promise<void> {
    const now = this.deps.clock.now();
    return this.deps.store.presence.beat(operatorId, this.node, now + PRESENCE_TTL_MS, now);
  }
}
