// One ranking rule for knowledge search (knowledge.md "Search"), run in JavaScript over the
// candidates the database found, so SQLite and PostgreSQL rank a question's passages alike. A
// passage scores by the share of the question's distinct words it holds (heading included), each
// word weighed by its rarity among the bot's passages (inverse document frequency): a passage
// holding more of the question's words beats one repeating one word, and a word in every passage
// counts little. Words of the question found in no passage weigh as rare words do, so a question
// that shares one incidental word with the documents scores low. With an embedding model, the
// cosine above the model's minimum joins in (fusedScore). Scores run 0..1, a confidence a person
// can read: 1 is every word of the question (or the same meaning), 0 nothing.

export interface RankedText {
  chunkId: number;
  heading: string;
  text: string;
}

export interface TermStats {
  /** the bot's searchable passages */
  passages: number;
  /** per question term (as searchTerms gave it): passages holding it, as the database counts (capped) */
  frequencies: ReadonlyMap<string, number>;
}

/** How much repeating a word adds, at most, beside holding it (the rest of the score is holding). */
export const REPETITION_SHARE = 0.1;
/** A question's word that no passage holds weighs this share of a word held by one passage (chosen on the dev set: 0.5, 0.75 and 1 tried). */
export const UNKNOWN_WEIGHT = 1;
/** Occurrences past this add nothing more. */
const MAX_REPEATS = 4;
/** A word in the heading counts as this many occurrences in the text. */
const HEADING_OCCURRENCES = 2;

/** BM25's inverse document frequency, always above 0 (a word in every passage still counts a little). */
export const idf = (passages: number, frequency: number): number => Math.log(1 + (passages - frequency + 0.5) / (frequency + 0.5));

const WORD = /[\p{L}\p{N}]+/gu;

/** How many times each stem occurs in the passage, its heading counting double. */
export function stemCounts(passage: Pick<RankedText, 'heading' | 'text'>, stem: (word: string) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [source, times] of [
    [passage.heading, HEADING_OCCURRENCES],
    [passage.text, 1],
  ] as const) {
    for (const [word] of source.matchAll(WORD)) {
      const s = stem(word);
      counts.set(s, (counts.get(s) ?? 0) + times);
    }
  }
  return counts;
}

/** The question's distinct stems and their weights. */
export function weighedStems(terms: readonly string[], stats: TermStats, stem: (word: string) => string): Map<string, number> {
  const frequencyOf = new Map<string, number>();
  for (const term of terms) {
    const s = stem(term);
    frequencyOf.set(s, Math.max(frequencyOf.get(s) ?? 0, stats.frequencies.get(term) ?? 0));
  }
  const passages = Math.max(1, stats.passages);
  const weights = new Map<string, number>();
  for (const [s, frequency] of frequencyOf) weights.set(s, frequency === 0 ? UNKNOWN_WEIGHT * idf(passages, 1) : idf(passages, frequency));
  return weights;
}

/** The words score of each passage, 0..1. */
export function wordScore(weights: ReadonlyMap<string, number>, counts: ReadonlyMap<string, number>): number {
  let total = 0;
  let held = 0;
  let repeated = 0;
  for (const [s, weight] of weights) {
    total += weight;
    const n = counts.get(s) ?? 0;
    if (n === 0) continue;
    held += weight;
    repeated += (weight * (Math.min(n, MAX_REPEATS) - 1)) / (MAX_REPEATS - 1);
  }
  if (total === 0) return 0;
  return ((1 - REPETITION_SHARE) * held + REPETITION_SHARE * repeated) / total;
}

/** Passages with their words score, best first (ties by chunk id, the order they were added). */
export function rankByWords<P extends RankedText>(terms: readonly string[], candidates: readonly P[], stats: TermStats, stem: (word: string) => string): Array<P & { score: number }> {
  const weights = weighedStems(terms, stats, stem);
  return candidates
    .map((p) => ({ ...p, score: wordScore(weights, stemCounts(p, stem)) }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
}

/** The cosine at which meaning counts fully (a paraphrase of the passage itself; 0.6, 0.7, 0.8 tried on the dev set with USE). */
export const FULL_SIMILARITY = 0.8;
/** How much meaning can give at most (0.5, 0.7, 0.9 tried): a cosine alone never makes a certainty. */
export const MEANING_WEIGHT = 0.7;

/**
 * Words and meaning in one 0..1 score: meaning is the cosine's place between the model's minimum
 * (nothing: an unrelated passage, whatever the model) and FULL_SIMILARITY; the two combine as
 * independent evidence (1 - (1 - words)(1 - meaning)), so a passage both find scores above one
 * only either finds, and a cosine under the minimum leaves the words score as it is.
 */
export function fusedScore(words: number, similarity: number | null, minSimilarity: number): number {
  if (similarity === null || similarity <= minSimilarity) return words;
  const meaning = MEANING_WEIGHT * Math.min(1, (similarity - minSimilarity) / Math.max(1e-6, FULL_SIMILARITY - minSimilarity));
  return 1 - (1 - words) * (1 - meaning);
}
