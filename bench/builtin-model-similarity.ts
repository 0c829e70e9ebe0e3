// How the built-in model's minimum similarity (src/understanding/builtin-model/provider.ts) was
// chosen, on the DEVELOPMENT held-out sets only (never a "(blind)" one). Knowledge: each intent's
// examples, joined, stand for a FAQ passage (its name as heading); each paraphrase is a question
// whose right passage is its intent's, each unrelated sentence a question about nothing there. For
// each candidate minimum: the share of paraphrases whose best passage is the right one and clears
// it, and the share of unrelated questions that clear it (a confident answer about nothing).
// Intents: the server's path (IntentEmbeddings.refine) at each minimum, as understanding-embeddings.ts.
// In-process, no server, no network: `npx tsx bench/builtin-model-similarity.ts` (about a minute).
import type { BotRecord } from '../src/bots/model.js';
import type { CompiledNlp } from '../src/engine/nlp/compiled-nlp.js';
import { similarity, type EmbedResult } from '../src/integrations/embeddings-client.js';
import { systemClock } from '../src/shared/clock.js';
import { BuiltinModel, DEFAULT_BUILTIN_MODEL_LIMITS } from '../src/understanding/builtin-model/pool.js';
import { BUILTIN_PROVIDER } from '../src/understanding/builtin-model/provider.js';
import { IntentEmbeddings } from '../src/understanding/intent-embeddings.js';
import { loadClassifier, trainModel } from '../src/understanding/model.js';
import { HELD_OUT_SETS } from './held-out-sets.js';

const CANDIDATES = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];
const DEVELOPMENT = HELD_OUT_SETS.filter((set) => !set.name.includes('(blind)'));
// the model's threads do not keep a process alive (a server's socket does): this run's timer does
const keepAlive = setInterval(() => undefined, 60_000);
const model = new BuiltinModel({ ...DEFAULT_BUILTIN_MODEL_LIMITS, queue: 1_000, cacheEntries: 100_000 });
const embed = async (texts: readonly string[]): Promise<Float32Array[]> => {
  const result: EmbedResult = await model.embed(texts, { timeoutMs: 600_000 });
  if (result.status !== 'OK') throw new Error(`the built-in model: ${result.status}`);
  return result.vectors;
};

const knowledge = { right: CANDIDATES.map(() => 0), unrelated: CANDIDATES.map(() => 0), questions: 0, unrelatedQuestions: 0 };
for (const set of DEVELOPMENT) {
  const intents = set.section.intents ?? [];
  const passages = await embed(intents.map((i) => `${i.name.replace(/_/g, ' ')}\n\n${i.examples.join('. ')}`));
  const best = (query: Float32Array) => passages.map((p, i) => ({ i, s: similarity(p, query) })).sort((a, b) => b.s - a.s)[0];
  const paraphrases = await embed(set.paraphrases.map(([, text]) => text));
  set.paraphrases.forEach(([intent], k) => {
    const top = best(paraphrases[k]);
    CANDIDATES.forEach((min, c) => (knowledge.right[c] += intents[top.i].name === intent && top.s >= min ? 1 : 0));
  });
  for (const query of await embed(set.unrelated)) {
    const top = best(query);
    CANDIDATES.forEach((min, c) => (knowledge.unrelated[c] += top.s >= min ? 1 : 0));
  }
  knowledge.questions += set.paraphrases.length;
  knowledge.unrelatedQuestions += set.unrelated.length;
}
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
console.log(`knowledge (${knowledge.questions} paraphrased questions, ${knowledge.unrelatedQuestions} unrelated; development sets):`);
CANDIDATES.forEach((min, c) =>
  console.log(`  min ${min}: right passage first and above ${pct(knowledge.right[c], knowledge.questions)}, unrelated answered ${pct(knowledge.unrelated[c], knowledge.unrelatedQuestions)}`),
);

const stored = new Map<string, { labels: string[]; vectors: Uint8Array }>();
console.log('intents (development sets, paraphrases right / unrelated passing):');
for (const min of CANDIDATES) {
  const intents = new IntentEmbeddings({
    store: { vectors: { intentVectors: async (v, m) => stored.get(`${v}/${m}`) ?? null, putIntentVectors: async (v, m, labels, vectors) => void stored.set(`${v}/${m}`, { labels, vectors }) } },
    clock: systemClock,
    provider: async () => ({ ...BUILTIN_PROVIDER, model: 'dev' }),
    embed: async (_p, texts) => model.embed(texts, { timeoutMs: 600_000 }),
    countTokens: async () => undefined,
    allowPrivateNetwork: false,
    minSimilarity: min,
  });
  let right = 0,
    passing = 0,
    paraphrases = 0,
    unrelated = 0;
  for (const [n, { name, section, paraphrases: pairs, unrelated: others }] of DEVELOPMENT.entries()) {
    const classifier = await loadClassifier((await trainModel(section))!, section.language);
    const nlp: CompiledNlp = { language: section.language ?? 'en', threshold: section.threshold ?? 0.7, aiFallback: false, intents: section.intents ?? [], entities: [] };
    const bot = { id: `bot-${name}` } as BotRecord;
    await intents.prepare(bot, n + 1, nlp, { ...BUILTIN_PROVIDER, model: 'dev' });
    const top = async (text: string) => (await intents.refine(bot, n + 1, nlp, text, await classifier.classify(text))).intents[0];
    for (const [intent, text] of pairs) {
      const found = await top(text);
      if (found?.intent === intent && found.score >= nlp.threshold) right++;
    }
    for (const text of others) if (((await top(text))?.score ?? 0) >= nlp.threshold) passing++;
    paraphrases += pairs.length;
    unrelated += others.length;
  }
  console.log(`  min ${min}: ${right}/${paraphrases} (${pct(right, paraphrases)}), unrelated ${passing}/${unrelated}`);
}
model.stop();
clearInterval(keepAlive);
