// The cost of the costliest intent models a bot file may ask for (docs/limits.md "Intents and
// entities"): each shape trained on the training thread (understanding/trainer.ts) at the default
// caps, its time, and the smallest heap cap it trains within. `npx tsx bench/train-worst.ts`
import { Trainer } from '../src/understanding/trainer.js';
import { DEFAULT_TRAINING_LIMITS } from '../src/understanding/training-limits.js';
import { largeAllowedIntents, slowAllowedIntents, words } from '../test/support/nlp-kit.js';

const fewLong = () => {
  const word = words(11, 5);
  // 10 intents × 100 examples of 5 words: the most examples per intent
  return Array.from({ length: 10 }, (_, i) => ({ name: `intent_${i}`, examples: Array.from({ length: 100 }, () => [word(), word(), word(), word(), word()].join(' ')) }));
};
const shapes: Array<[string, { name: string; examples: string[] }[]]> = [
  ['50 intents × 20 examples of 5 distinct words', largeAllowedIntents(1)],
  ['50 intents × 20 examples of 10 two-letter words', slowAllowedIntents(7)],
  ['10 intents × 100 examples of 5 distinct words', fewLong()],
];

for (const [shape, intents] of shapes) {
  const chars = intents.reduce((n, i) => n + i.examples.reduce((m, e) => m + e.length, 0), 0);
  const started = performance.now();
  await new Trainer(DEFAULT_TRAINING_LIMITS).train({ intents });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  let heap = 0;
  for (const memoryMb of [16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512]) {
    try {
      await new Trainer({ ...DEFAULT_TRAINING_LIMITS, memoryMb, timeoutMs: 120_000 }).train({ intents });
      heap = memoryMb;
      break;
    } catch {
      // over this cap: try the next
    }
  }
  console.log(`${shape} (${chars} characters): ${seconds} s on the thread, trains within a ${heap} MB heap cap`);
}
process.exit(0);
