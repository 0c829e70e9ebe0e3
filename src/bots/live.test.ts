// The live-bot cache is bounded: a server that saw many bots (deleted ones included) does not keep
// every compiled bot forever, and a bot in use stays cached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BotRecord } from './model.js';
import { LiveBots } from './live.js';

function fakeStore(): { store: ConstructorParameters<typeof LiveBots>[0]; reads: number[] } {
  const reads: number[] = [];
  const content = { behaviours: [{ name: 'Main', start: true, interactions: [{ name: 'Start', start: true, actions: [] }] }] };
  const store = { bots: { versionById: async (id: number) => (reads.push(id), { id, content }) } } as unknown as ConstructorParameters<typeof LiveBots>[0];
  return { store, reads };
}

const bot = (n: number): BotRecord => ({ id: `bot-${n}`, name: `Bot ${n}`, settings: {}, liveVersionId: n, version: 1 }) as unknown as BotRecord;

test('the cache keeps at most its capacity of bots, dropping the least recently used', async () => {
  const { store, reads } = fakeStore();
  const live = new LiveBots(store, 2);
  await live.get(bot(1));
  await live.get(bot(2));
  await live.get(bot(1)); // cached, and now the most recently used
  assert.deepEqual(reads, [1, 2]);
  await live.get(bot(3)); // evicts bot 2, the least recently used
  assert.equal(live.size, 2);
  await live.get(bot(1));
  assert.deepEqual(reads, [1, 2, 3]);
  await live.get(bot(2)); // compiled again
  assert.deepEqual(reads, [1, 2, 3, 2]);
  assert.equal(live.size, 2);
});
