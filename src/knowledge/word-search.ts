// Search by words (knowledge.md "Search"): the database finds the candidates and counts the words
// (store/knowledge-search.ts `candidates`); ranking.ts ranks them by one rule on both databases, each
// passage with a 0..1 score.
import type { Candidates } from './model.js';
import type { FoundPassage } from './model.js';
import { rankByWords } from './ranking.js';
import { stemmerOf } from './stems.js';

/** Passages a question's words bring to the ranking, at most: enough for any real question, cheap to rank (about 300 KB of text). */
export const WORD_CANDIDATES = 200;

export type CandidatesOf = (ownerId: string, terms: readonly string[], language: string, cap: number) => Promise<Candidates>;

/** The passages sharing a word with the question, best first, each with its words score. */
export async function searchByWords(candidatesOf: CandidatesOf, ownerId: string, terms: readonly string[], language: string, limit: number): Promise<FoundPassage[]> {
  if (terms.length === 0) return [];
  const [found, stem] = await Promise.all([candidatesOf(ownerId, terms, language, WORD_CANDIDATES), stemmerOf(language)]);
  return rankByWords(terms, found.passages, { passages: found.passageCount, frequencies: found.frequencies }, stem).slice(0, limit);
}
