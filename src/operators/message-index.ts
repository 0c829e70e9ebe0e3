// The console's message search is brought up to date after the turns, not in them (migration 022):
// by maintenance every second, and by a search before it looks, so that a search finds every
// message stored before it was asked.
import type { MessageIndexStorage } from './port.js';

/** Messages indexed per transaction: large enough that FTS5 writes few segments, small enough (a few ms) not to hold turns up. */
export const INDEX_BATCH = 2000;
/** Batches per call: 50,000 messages, more than a busy node stores in a second. */
const ROUNDS = 25;

/** Indexes what was stored since the last call, in batches; how many messages. */
export async function indexNewMessages(store: MessageIndexStorage): Promise<number> {
  let total = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const n = await store.indexNewMessages(INDEX_BATCH);
    total += n;
    if (n < INDEX_BATCH) break;
  }
  return total;
}
