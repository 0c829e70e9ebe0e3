// Typo tolerance for English texts (issue 22): a word neither the model nor English knows is read
// as the nearest word of the bot's examples. nlp.js's own spell check compares stems by Levenshtein
// distance 1, which misses the commonest slips: a swapped pair ("cancle") is two edits there, and
// a dropped letter before a suffix ("boardng") is two edits from the stem "board". So the words
// of the examples as written are candidates too, a swap counts as one edit (optimal string
// alignment), and a long word may have two (docs/decisions.md "Understanding free text").
// Candidates are bucketed by length and each comparison stops once the limit is passed: a look-up
// costs at most (words of 2k+1 lengths) × (word length × (2k+1)) steps, k the edits allowed.

/** Edits allowed for a word of `length` letters: none under 4 ("bok" is too many words away), 2 from 8. */
export const editsAllowed = (length: number): number => (length < 4 ? 0 : length < 8 ? 1 : 2);

/**
 * The optimal-string-alignment distance (insert, delete, substitute, swap two neighbours) between
 * `a` and `b`, or `limit + 1` as soon as it must exceed `limit`. Only cells within `limit` of the
 * diagonal are computed, in three rows allocated once: a comparison costs O(length × limit), not
 * O(length²), however long the words.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const far = limit + 1;
  const width = b.length + 1;
  let before = new Int32Array(width).fill(far);
  let previous = new Int32Array(width).fill(far);
  let current = new Int32Array(width).fill(far);
  for (let j = 0; j <= Math.min(limit, b.length); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(b.length, i + limit);
    // the cells just outside the band are read by the next rows: out of reach
    current[lo - 1] = lo === 1 && i <= limit ? i : far;
    if (hi + 1 < width) current[hi + 1] = far;
    let best = current[lo - 1];
    for (let j = lo; j <= hi; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = Math.min(d, far);
      best = Math.min(best, current[j]);
    }
    if (best > limit) return far;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length], far);
}

/** The words a typo may be read as, by length, each list sorted (the nearest-word choice is stable). */
export class Vocabulary {
  private readonly byLength = new Map<number, string[]>();

  constructor(words: Iterable<string>) {
    for (const word of new Set(words)) {
      const list = this.byLength.get(word.length) ?? [];
      list.push(word);
      this.byLength.set(word.length, list);
    }
    for (const list of this.byLength.values()) list.sort();
  }

  /**
   * The word within `editsAllowed` of `word` with the fewest edits; between equals, one starting
   * with the same letter (people rarely miss the first one), then the first in order. Undefined
   * when none is near enough.
   */
  nearest(word: string): string | undefined {
    const limit = editsAllowed(word.length);
    if (limit === 0) return undefined;
    let best: string | undefined;
    let bestRank = Infinity;
    for (let length = word.length - limit; length <= word.length + limit; length++) {
      for (const candidate of this.byLength.get(length) ?? []) {
        const distance = editDistance(word, candidate, limit);
        if (distance > limit) continue;
        const rank = 2 * distance + (candidate[0] === word[0] ? 0 : 1);
        if (rank < bestRank || (rank === bestRank && best !== undefined && candidate < best)) {
          best = candidate;
          bestRank = rank;
        }
      }
    }
    return best;
  }
}
