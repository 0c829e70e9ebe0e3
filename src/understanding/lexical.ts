// A second, independent opinion on a text's intent (issue 22): how much of the text's rare words
// each intent's examples use. nlp.js's classifier weighs every word it knows about alike, so "how
// do i get" counts as much as "reimbursed"; here a word counts by its rarity across all examples
// (an IDF weight, as BM25 does), so the word that matters decides. The table is computed when the
// model is trained and stored with it; scoring a text is one table look-up per distinct stem.

/** What training stores: the classes (the bot's intents, then the out-of-scope class) and per stem its weight and share of each class. */
export interface LexicalTable {
  classes: string[];
  /** stem → [weight, share of class 0, share of class 1, ...]: shares sum to 1 */
  stems: Record<string, number[]>;
  /** the weight of a stem no example uses (evidence for the out-of-scope class, the last one) */
  unknown: number;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The table for examples given as their stems, by class (the out-of-scope class last). */
export function lexicalTable(classes: ReadonlyArray<{ name: string; examples: ReadonlyArray<readonly string[]> }>): LexicalTable {
  const total = classes.reduce((n, c) => n + c.examples.length, 0);
  const seen = new Map<string, number[]>(); // stem → examples of each class that use it
  classes.forEach((cls, at) => {
    for (const stems of cls.examples) {
      for (const stem of new Set(stems)) {
        if (!seen.has(stem)) seen.set(stem, new Array<number>(classes.length).fill(0));
        seen.get(stem)![at] += 1;
      }
    }
  });
  const idf = (df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));
  const stems: Record<string, number[]> = {};
  for (const stem of [...seen.keys()].sort()) {
    const counts = seen.get(stem)!;
    const rates = counts.map((n, at) => n / Math.max(1, classes[at].examples.length));
    const sum = rates.reduce((a, b) => a + b, 0);
    stems[stem] = [round(idf(counts.reduce((a, b) => a + b, 0))), ...rates.map((r) => round(r / sum))];
  }
  return { classes: classes.map((c) => c.name), stems, unknown: round(idf(0)) };
}

/** A stem no example uses weighs half a stem only one example uses: it is evidence against every intent, but weak (a place name, a number). */
const UNKNOWN_WEIGHT = 0.5;
/** The floor of a class's lexical share in the product, so that a class the words miss is lowered, not ruled out. */
const LEXICAL_FLOOR = 0.01;

/** Each class's share of the text's stems' weight; a stem no example uses counts for the out-of-scope class. */
export function lexicalScores(table: LexicalTable, stems: Iterable<string>): number[] {
  const scores = new Array<number>(table.classes.length).fill(0);
  let mass = 0;
  for (const stem of new Set(stems)) {
    const row = Object.hasOwn(table.stems, stem) ? table.stems[stem] : undefined;
    if (row === undefined) {
      const weight = table.unknown * UNKNOWN_WEIGHT;
      scores[scores.length - 1] += weight;
      mass += weight;
      continue;
    }
    mass += row[0];
    for (let at = 0; at < scores.length; at++) scores[at] += row[0] * row[at + 1];
  }
  return mass === 0 ? scores : scores.map((s) => s / mass);
}

/**
 * nlp.js's scores (the out-of-scope class included) and the lexical shares, multiplied class by
 * class and normalized: a product of two experts. An intent rises only where both give it weight;
 * the lexical opinion alone cannot lift an intent nlp.js gave nothing, and unknown or out-of-scope
 * words hold the out-of-scope class up, so unrelated texts stay low.
 */
export function combineScores(scored: ReadonlyArray<{ intent: string; score: number }>, table: LexicalTable, stems: Iterable<string>): Array<{ intent: string; score: number }> {
  const lexical = lexicalScores(table, stems);
  const nlpScore = new Map(scored.map((c) => [c.intent, c.score]));
  const products = table.classes.map((name, at) => (nlpScore.get(name) ?? 0) * (lexical[at] + LEXICAL_FLOOR));
  const sum = products.reduce((a, b) => a + b, 0);
  if (sum === 0) return [...scored];
  return table.classes.map((intent, at) => ({ intent, score: products[at] / sum })).filter((c) => c.score > 0);
}
