// How a bot's embedding model and its nlp.js model decide an intent together (issue 22; docs/
// decisions.md "Intents by meaning"). Each class, every intent and the out-of-scope sentences,
// gets the mean cosine of its NEAREST_PER_CLASS nearest examples to the text (one example alone
// is too easily near by chance; a class's few nearest say what it is about). An intent's figure
// is that mean plus LEXICAL_WEIGHT × nlp.js's score (words still break near ties), and its score
// is how far that figure is ahead of the out-of-scope class's, from a BASE: at the default
// threshold 0.7 an intent is taken when it is 0.05 nearer than the out-of-scope sentences, so a
// text about something else, even one nlp.js is sure of ("recommend a board game" → lost_card
// 1.00 through the WordNet sense "board" = "card"), reaches the fallback. A higher threshold asks
// for a wider lead, a lower one for less, as with nlp.js alone. Chosen on six held-out sets and
// checked on four written blind (docs/decisions.md).
import type { ClassifyAnswer } from '../engine/types.js';
import { similarity } from '../integrations/embeddings-client.js';

/** The label of the out-of-scope examples among a version's vectors. */
export const OUT_OF_SCOPE_LABEL = '';
/** How many of a class's nearest examples its similarity is the mean of. */
export const NEAREST_PER_CLASS = 3;
/** How much nlp.js's score (0–1) adds to an intent's similarity. */
export const LEXICAL_WEIGHT = 0.1;
/** An intent's score when it is exactly as near as the out-of-scope class. */
export const BASE = 0.65;

/** For each label, the mean dot product of `query` and its NEAREST_PER_CLASS nearest vectors (all vectors of length 1). */
export function classSimilarities(labels: readonly string[], vectors: readonly Float32Array[], query: Float32Array): Map<string, number> {
  const nearest = new Map<string, number[]>();
  for (let i = 0; i < labels.length; i++) {
    if (vectors[i].length !== query.length) continue;
    const dot = similarity(vectors[i], query);
    const best = nearest.get(labels[i]) ?? [];
    if (best.length < NEAREST_PER_CLASS || dot > best[best.length - 1]) {
      best.push(dot);
      best.sort((a, b) => b - a);
      if (best.length > NEAREST_PER_CLASS) best.pop();
    }
    nearest.set(labels[i], best);
  }
  return new Map([...nearest].map(([label, best]) => [label, best.reduce((sum, s) => sum + s, 0) / best.length]));
}

/**
 * The bot's intents scored by meaning and words together, best first. An intent less similar than
 * `minSimilarity` (COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY) scores 0: nothing of it is near the text.
 */
export function byMeaning(answer: ClassifyAnswer, similarities: ReadonlyMap<string, number>, minSimilarity: number): ClassifyAnswer['intents'] {
  const lexical = new Map(answer.intents.map((i) => [i.intent, i.score]));
  const outOfScope = similarities.get(OUT_OF_SCOPE_LABEL) ?? 0;
  const names = new Set([...lexical.keys(), ...similarities.keys()]);
  names.delete(OUT_OF_SCOPE_LABEL);
  const scored = [...names].map((intent) => {
    const similarity = similarities.get(intent) ?? 0;
    const lead = similarity + LEXICAL_WEIGHT * (lexical.get(intent) ?? 0) - outOfScope;
    return { intent, score: similarity < minSimilarity ? 0 : Math.min(1, Math.max(0, BASE + lead)) };
  });
  return scored.sort((a, b) => b.score - a.score || (a.intent < b.intent ? -1 : 1));
}
