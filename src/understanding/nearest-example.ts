// A second opinion on an English text (issue 22): how near it is to the nearest example of each
// intent and of the out-of-scope set, by the content words they share (stems, nlp.js's stopwords
// left out), each weighed by how few classes use it (IDF over the intents and the out-of-scope
// class). nlp.js's perceptrons weigh a function word as much as a content word, and its out-of-
// scope class, ~170 sentences against ~14 examples an intent, pulls "how do i get reimbursed" away
// from the one example that says "reimbursed". Here a rare shared word counts most, and the
// out-of-scope sentences are a class like any other, so an unrelated text finds its nearest
// example among them. `combineScores` lets this opinion raise nlp.js's score of an intent only
// when it is clearly ahead of every other class (docs/decisions.md "Understanding free text").
import type { ClassifyAnswer } from '../engine/types.js';
import type { NlpInternals } from './nlpjs-caches.js';

/** What training stores (the export's `colloquy.examples`): stems, one space-separated string an example. */
export interface StoredExamples {
  intents: Record<string, string[]>;
  /** the language's out-of-scope sentences, as they were when the model was trained */
  none: string[];
  /** stems of the examples' names of places and people: neither side is weighed for them */
  names: string[];
}

/** The out-of-scope class, nlp.js's `None`. */
export const NONE = 'None';
/** A chat message has a few content words; a 16 KB one is read for its first STEMS_READ (docs/limits.md). */
export const STEMS_READ = 64;
/** The nearest class must be an intent this near, and this far ahead of every other class and of out-of-scope. */
export const NEAR_ENOUGH = 0.6;
export const CLEAR_LEAD = 0.1;

/** The stems of a text's words as nlp.js tokenizes and stems them, stopwords left out. */
export function contentStems(text: string, { tokenizer, stemmer, stopwords }: NlpInternals): string[] {
  return tokenizer
    .tokenize(text, true)
    .filter((token) => !stopwords.isStopword(token))
    .map((token) => stemmer.stemWord(token));
}

interface Example {
  intent: string;
  /** its stems' squared weights, added up */
  norm2: number;
}

export interface Nearness {
  intent: string;
  /** cosine of the text and the class's nearest example (IDF-weighted, binary) */
  similarity: number;
  /** the share of the text's squared weight found in any example of the class */
  coverage: number;
  /** √(similarity × coverage): one figure for the class */
  closeness: number;
}

const hasDigit = (stem: string) => {
  for (const c of stem) if (c >= '0' && c <= '9') return true;
  return false;
};

export class NearestExamples {
  private readonly weights = new Map<string, number>();
  private readonly byStem = new Map<string, Example[]>();
  private readonly classStems = new Map<string, Set<string>>();
  private readonly related: ReadonlyMap<string, readonly string[]>;
  private readonly names: ReadonlySet<string>;
  private readonly unknownWeight: number;

  /** `related`: stem of a word no example uses → the examples' stems it is related to (space-separated) */
  constructor(stored: StoredExamples, related: Record<string, string> = {}) {
    const classes: [string, string[]][] = [...Object.entries(stored.intents), [NONE, stored.none]];
    for (const [name, examples] of classes) this.classStems.set(name, new Set(examples.flatMap((example) => example.split(' ')).filter((stem) => stem !== '')));
    const classesUsing = new Map<string, number>();
    for (const stems of this.classStems.values()) for (const stem of stems) classesUsing.set(stem, (classesUsing.get(stem) ?? 0) + 1);
    for (const [stem, count] of classesUsing) this.weights.set(stem, Math.log((classes.length + 1) / count));
    // a word no example has weighs as much as the rarest known one: "who discovered penicillin"
    // shares only "find" with "find me a flight", and must stay half a match (half as much let
    // two unrelated travel sentences through)
    this.unknownWeight = Math.log(classes.length + 1);
    for (const [intent, examples] of classes) {
      for (const text of examples) {
        const stems = new Set(text.split(' ').filter((stem) => stem !== ''));
        const example = { intent, norm2: [...stems].reduce((sum, stem) => sum + this.weights.get(stem)! ** 2, 0) };
        if (example.norm2 === 0) continue;
        for (const stem of stems) {
          if (!this.byStem.has(stem)) this.byStem.set(stem, []);
          this.byStem.get(stem)!.push(example);
        }
      }
    }
    this.related = new Map(Object.entries(related).map(([stem, stems]) => [stem, stems.split(' ')]));
    this.names = new Set(stored.names);
  }

  /**
   * Each class (intents and `None`) that shares a stem with the text, nearest first. Numbers and
   * codes ("6", "lh400") and names are what a request is about, not what it asks: left out.
   * Cost: one look-up per stem and one step per example sharing it, for at most STEMS_READ stems.
   */
  nearest(stems: readonly string[]): Nearness[] {
    // the known stems the text has, a related word (WordNet, stored at training) read as its
    // example's words: for this scorer only, so a wrong sense cannot mislead nlp.js
    const known = new Set<string>();
    let norm2 = 0;
    for (const stem of new Set(stems.slice(0, STEMS_READ))) {
      if (this.names.has(stem) || hasDigit(stem)) continue;
      if (this.weights.has(stem)) known.add(stem);
      else if (this.related.has(stem)) {
        for (const target of this.related.get(stem)!) if (this.weights.has(target)) known.add(target);
      } else norm2 += this.unknownWeight ** 2;
    }
    for (const stem of known) norm2 += this.weights.get(stem)! ** 2;
    const dots = new Map<Example, number>();
    for (const stem of known) {
      const weight2 = this.weights.get(stem)! ** 2;
      for (const example of this.byStem.get(stem) ?? []) dots.set(example, (dots.get(example) ?? 0) + weight2);
    }
    const similarity = new Map<string, number>();
    for (const [example, dot] of dots) similarity.set(example.intent, Math.max(similarity.get(example.intent) ?? 0, dot / Math.sqrt(norm2 * example.norm2)));
    const found: Nearness[] = [];
    for (const [intent, best] of similarity) {
      let covered = 0;
      const stemsOfClass = this.classStems.get(intent)!;
      for (const stem of known) if (stemsOfClass.has(stem)) covered += this.weights.get(stem)! ** 2;
      const coverage = covered / norm2;
      found.push({ intent, similarity: best, coverage, closeness: Math.sqrt(best * coverage) });
    }
    return found.sort((a, b) => b.closeness - a.closeness || (a.intent < b.intent ? -1 : 1));
  }
}

/**
 * nlp.js's scores (the bot's intents, best first) with the nearest-example opinion: when its
 * nearest class is an intent at least NEAR_ENOUGH near and CLEAR_LEAD ahead of every other class
 * (out-of-scope included), that intent's score s becomes 1 − (1 − s)(1 − closeness): both
 * agreeing raise it, and the opinion alone reaches a 0.7 threshold only from a near-exact match.
 * Otherwise nlp.js's scores stand; the opinion never lowers a score.
 */
export function combineScores(intents: ClassifyAnswer['intents'], near: readonly Nearness[]): ClassifyAnswer['intents'] {
  const [top, next] = near;
  if (top === undefined || top.intent === NONE || top.closeness < NEAR_ENOUGH || top.closeness - (next?.closeness ?? 0) < CLEAR_LEAD) return intents;
  const score = 1 - (1 - (intents.find((i) => i.intent === top.intent)?.score ?? 0)) * (1 - top.closeness);
  return [{ intent: top.intent, score }, ...intents.filter((i) => i.intent !== top.intent)].sort((a, b) => b.score - a.score || (a.intent < b.intent ? -1 : 1));
}
