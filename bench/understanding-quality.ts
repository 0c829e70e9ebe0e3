// Issue 22's figures: how many held-out paraphrases reach their intent and how many unrelated
// sentences pass the threshold (the sets of bench/held-out-sets.ts), how long the demo bot takes
// to train, and what one classification costs.
// In-process, no server: `npx tsx bench/understanding-quality.ts`.
import { loadClassifier, trainModel } from '../src/understanding/model.js';
import { PARAPHRASES, UNRELATED } from '../test/fixtures/held-out-paraphrases.js';
import { DEMO_NLP as demo, HELD_OUT_SETS, type HeldOutSet } from './held-out-sets.js';

// misses are printed for the sets that may be tuned on; the blind sets' only on purpose
const verbose = (name: string) => process.argv.includes(name.includes('(blind)') ? '--blind-misses' : '--misses');

async function score({ name, section, paraphrases, unrelated }: HeldOutSet) {
  const classifier = await loadClassifier((await trainModel(section))!, section.language);
  const threshold = section.threshold ?? 0.7;
  let right = 0;
  for (const [intent, text] of paraphrases) {
    const best = (await classifier.classify(text)).intents[0];
    if (best?.intent === intent && best.score >= threshold) right += 1;
    else if (verbose(name)) console.log(`  miss  ${text} → ${best?.intent} ${best?.score.toFixed(2)} (want ${intent})`);
  }
  let passing = 0;
  for (const text of unrelated) {
    const best = (await classifier.classify(text)).intents[0];
    if ((best?.score ?? 0) >= threshold) {
      passing += 1;
      if (verbose(name)) console.log(`  pass  ${text} → ${best.intent} ${best.score.toFixed(2)}`);
    }
  }
  const rate = ((100 * right) / paraphrases.length).toFixed(1);
  console.log(`${name}: ${right}/${paraphrases.length} right (${rate}%), unrelated above the threshold ${passing}/${unrelated.length}`);
}

for (const set of HELD_OUT_SETS) await score(set);

const trainings: number[] = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  // a new salt each run: trainModel remembers sections it trained
  await trainModel({ ...demo, intents: [...demo.intents!, { name: 'salt', examples: [`salt ${run} ${Date.now()}`, `pepper ${run}`] }] });
  trainings.push(performance.now() - started);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const classifier = await loadClassifier((await trainModel(demo))!);
const texts = [...PARAPHRASES.map(([, t]) => t), ...UNRELATED];
for (const t of texts) await classifier.classify(t);
const started = performance.now();
for (let i = 0; i < 10; i++) for (const t of texts) await classifier.classify(t);
const perCallUs = ((performance.now() - started) * 1000) / (10 * texts.length);
console.log(`demo bot training: ${median(trainings).toFixed(0)} ms (median of 5); classify: ${perCallUs.toFixed(0)} µs per call`);
